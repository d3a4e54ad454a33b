"""`tf.contrib.model_pruning.train`: tf-slim's training loop with the mask update run after every step.

TF 1.15's `tensorflow/contrib/model_pruning/python/learning.py`, written by tf1clip on tf-slim's `learning.train`
(TF 1.15's contrib.slim.learning, which moved there):

    p = Pruning(get_pruning_hparams().parse(FLAGS.pruning_hparams))
    train(train_op, logdir, p.conditional_mask_update_op(), number_of_steps=1000)

Every argument but `mask_update_op` is slim's. As in TF 1.15, `train` unpacks slim's result (the last loss, a
number) as a pair, so once training has finished (the final checkpoint saved) it raises TypeError ("cannot unpack
non-iterable ..."): TF 1.15's own behaviour, kept so that scripts see what they saw there.
"""

from tf1clip.contrib import slim as _slim

_USE_DEFAULT = 0  # slim's marker for "build the default" (an init op, a summary writer, ...)
train_step = _slim.learning.train_step


def train(train_op, logdir, mask_update_op, train_step_fn=train_step, train_step_kwargs=_USE_DEFAULT,
          log_every_n_steps=1, graph=None, master="", is_chief=True, global_step=None, number_of_steps=None,
          init_op=_USE_DEFAULT, init_feed_dict=None, local_init_op=_USE_DEFAULT, init_fn=None, ready_op=_USE_DEFAULT,
          summary_op=_USE_DEFAULT, save_summaries_secs=600, summary_writer=_USE_DEFAULT, startup_delay_steps=0,
          saver=None, save_interval_secs=600, sync_optimizer=None, session_config=None, trace_every_n_steps=None):
  """slim's `learning.train`, running `mask_update_op` after each call of `train_step_fn`.

  Args:
    train_op: applies the gradients and returns the loss.
    logdir: where checkpoints and summaries go (None: neither).
    mask_update_op: updates the weight masks and thresholds (`Pruning.conditional_mask_update_op()`).
    train_step_fn: one step, `(sess, train_op, global_step, train_step_kwargs) -> (loss, should_stop)`.
    train_step_kwargs, log_every_n_steps, graph, master, is_chief, global_step, number_of_steps, init_op,
    init_feed_dict, local_init_op, init_fn, ready_op, summary_op, save_summaries_secs, summary_writer,
    startup_delay_steps, saver, save_interval_secs, sync_optimizer, session_config, trace_every_n_steps: passed to
      slim's `learning.train` as they are (its documentation says what each does).

  Returns:
    Never: after training, unpacking slim's result raises TypeError, as in TF 1.15 (see the module docstring).

  Raises:
    ValueError: what slim raises (an empty train_op, startup_delay_steps with a sync_optimizer, ...).
    TypeError: once training has ended (TF 1.15's).
  """
  slim_arguments = dict(locals())  # this function's parameters, to hand on to slim under the same names
  del slim_arguments["mask_update_op"], slim_arguments["train_step_fn"]

  def step_then_update_masks(sess, op, step, kwargs):
    step_result = train_step_fn(sess, op, step, kwargs)
    sess.run(mask_update_op)
    return step_result

  total_loss, _ = _slim.learning.train(train_step_fn=step_then_update_masks, **slim_arguments)
  return total_loss
