"""`tf.contrib.model_pruning.train`: slim's training loop that runs the mask update after every step, TF 1.15's code.

Place in the data flow (DESIGN.md): tf-slim's learning.train (TF 1.15's contrib.slim.learning moved out) <-
**contrib.model_pruning.learning** <- compat <- cli.

    p = Pruning(get_pruning_hparams().parse(FLAGS.pruning_hparams))
    train(train_op, logdir, p.conditional_mask_update_op(), number_of_steps=1000)

Every argument but `mask_update_op` is slim's `learning.train`'s. As in TF 1.15, `train` unpacks slim's result
(the last loss, a number) as a pair, so once training has finished (and the final checkpoint is saved) it raises
TypeError ("cannot unpack non-iterable ..."): TF 1.15's own behaviour, kept so scripts see what they saw there.
"""

import tf1clip.contrib.slim as slim

_USE_DEFAULT = 0
train_step = slim.learning.train_step


def train(train_op, logdir, mask_update_op, train_step_fn=train_step, train_step_kwargs=_USE_DEFAULT,
          log_every_n_steps=1, graph=None, master="", is_chief=True, global_step=None, number_of_steps=None,
          init_op=_USE_DEFAULT, init_feed_dict=None, local_init_op=_USE_DEFAULT, init_fn=None, ready_op=_USE_DEFAULT,
          summary_op=_USE_DEFAULT, save_summaries_secs=600, summary_writer=_USE_DEFAULT, startup_delay_steps=0,
          saver=None, save_interval_secs=600, sync_optimizer=None, session_config=None, trace_every_n_steps=None):
  """slim's `learning.train` with `sess.run(mask_update_op)` after each `train_step_fn` call.

  Args:
    train_op: the op (or tensor) that applies the gradients and returns the loss.
    logdir: where checkpoints and summaries go (None: neither).
    mask_update_op: the op that updates the weight masks and thresholds (e.g.
      `Pruning.conditional_mask_update_op()`).
    train_step_fn: the step function (sess, train_op, global_step, kwargs) -> (loss, should_stop).
    train_step_kwargs: its keyword dict (default: slim's should_stop / should_log ops).
    log_every_n_steps: how often the loss is logged.
    graph: the graph (default: the default graph).
    master: the TensorFlow master's address.
    is_chief: whether this replica is the chief.
    global_step: the global step tensor (default: the graph's).
    number_of_steps: stop at this global step (None: never).
    init_op: the init op (default: global_variables_initializer).
    init_feed_dict: its feed dict.
    local_init_op: the local init op (default: local variables and tables).
    init_fn: called with the session after init_op.
    ready_op: the readiness check (default: report_uninitialized_variables).
    summary_op: the summary op (default: merge_all).
    save_summaries_secs: seconds between summaries.
    summary_writer: the writer (None: no summaries).
    startup_delay_steps: steps to wait before starting (0 with a sync_optimizer).
    saver: the checkpoint saver (default: a new one).
    save_interval_secs: seconds between checkpoints.
    sync_optimizer: a SyncReplicasOptimizer (or a list of them) for synchronous updates.
    session_config: the session's ConfigProto.
    trace_every_n_steps: write a Chrome trace every this many steps (needs logdir).

  Returns:
    Never: after training, unpacking slim's result raises TypeError, as in TF 1.15 (see the module docstring).

  Raises:
    ValueError: slim's (an empty train_op, startup_delay_steps with a sync_optimizer, a negative number_of_steps,
      trace_every_n_steps without logdir).
    TypeError: once training has ended (TF 1.15's).
  """

  def train_step_with_pruning_fn(sess, train_op, global_step, train_step_kwargs):
    total_loss, should_stop = train_step_fn(sess, train_op, global_step, train_step_kwargs)
    sess.run(mask_update_op)
    return total_loss, should_stop

  total_loss, _ = slim.learning.train(
      train_op,
      logdir,
      train_step_fn=train_step_with_pruning_fn,
      train_step_kwargs=train_step_kwargs,
      log_every_n_steps=log_every_n_steps,
      graph=graph,
      master=master,
      is_chief=is_chief,
      global_step=global_step,
      number_of_steps=number_of_steps,
      init_op=init_op,
      init_feed_dict=init_feed_dict,
      local_init_op=local_init_op,
      init_fn=init_fn,
      ready_op=ready_op,
      summary_op=summary_op,
      save_summaries_secs=save_summaries_secs,
      summary_writer=summary_writer,
      startup_delay_steps=startup_delay_steps,
      saver=saver,
      save_interval_secs=save_interval_secs,
      sync_optimizer=sync_optimizer,
      session_config=session_config,
      trace_every_n_steps=trace_every_n_steps)

  return total_loss
