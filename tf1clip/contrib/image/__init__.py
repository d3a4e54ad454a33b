"""`tf.contrib.image`: projective image transforms, dense warping and connected components, as in TF 1.15.

TensorFlow 2.21 has no public function for these, so they are tf1clip's own (step 3 of the legacy-surface order),
with TF 1.15's signatures and numbers:

- `transform` runs the `ImageProjectiveTransformV3` kernel (the successor of TF 1.15's contrib
  `ImageProjectiveTransform` op) with TF 1.15's behaviour: points that map outside the input read
  zeros; NEAREST or BILINEAR interpolation; 2-D (HW), 3-D (HWC) or 4-D (NHWC) images. Its gradient
  with respect to the images is TensorFlow's registered one.
- `rotate`, `translate`, `angles_to_projective_transforms`, `translations_to_projective_transforms`,
  `compose_transforms`, `flat_transforms_to_matrices`, `matrices_to_flat_transforms` build the
  8-number transforms `[a0, a1, a2, b0, b1, b2, c0, c1]` that map an OUTPUT point (x, y) to the input
  point ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k), k = c0 x + c1 y + 1.
- `dense_image_warp(image, flow)` reads `image` at (y, x) - flow[y, x] with bilinear interpolation
  (`interpolate_bilinear`, clamping to the border as TF 1.15 did).
- `connected_components(images)` labels 4-connected regions of equal non-zero value with ids 1..n
  across the batch, numbered by their first pixel in row-major order (scipy.ndimage.label's
  numbering); it runs as a `tf.numpy_function` (TF 1.15's custom kernel is gone), as does
  `bipartite_match` (TF 1.15's greedy matching).
- `interpolate_spline` (polyharmonic splines) and `sparse_image_warp` (a spline-interpolated flow from
  control points, applied with dense_image_warp) are TF 1.15's pure-TensorFlow code.
"""

import numpy as np
import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tf1clip.contrib.image.python.ops.single_image_random_dot_stereograms import single_image_random_dot_stereograms

_IMAGE_DTYPES = frozenset([tf.uint8, tf.int32, tf.int64, tf.float16, tf.float32, tf.float64])
_INTERPOLATIONS = ("NEAREST", "BILINEAR")


def _as_nhwc(images, function):
  """`images` as a 4-D tensor, and a function that restores the caller's rank."""
  images = tf.convert_to_tensor(images, name="images")
  if images.dtype.base_dtype not in _IMAGE_DTYPES:
    raise TypeError("%s: images must be one of %s; got dtype %s" % (
        function, sorted(d.name for d in _IMAGE_DTYPES), images.dtype.name))
  rank = images.get_shape().ndims
  if rank == 2:
    return images[None, :, :, None], lambda out: out[0, :, :, 0]
  if rank == 3:
    return images[None, :, :, :], lambda out: out[0, :, :, :]
  if rank == 4:
    return images, lambda out: out
  raise TypeError("%s: images must have rank 2 (HW), 3 (HWC) or 4 (NHWC); got shape %s"
                  % (function, images.get_shape()))


def transform(images, transforms, interpolation="NEAREST", output_shape=None, name=None):
  """Applies projective transform(s) to image(s); points outside the input read zeros.

  Args:
    images: a tensor of shape (N, H, W, C), (H, W, C) or (H, W); uint8, int32, int64, float16,
      float32 or float64.
    transforms: a vector of 8 numbers or an (N, 8) tensor `[a0, a1, a2, b0, b1, b2, c0, c1]`
      mapping each output point (x, y) to the input point ((a0 x + a1 y + a2) / k,
      (b0 x + b1 y + b2) / k), k = c0 x + c1 y + 1 (the inverse of the image's motion).
    interpolation: "NEAREST" or "BILINEAR" (case-insensitive).
    output_shape: optional [height, width] of the output; default the input's.
    name: the op's name scope.

  Returns:
    The transformed image(s), with the dtype and rank of `images`.

  Raises:
    TypeError: `images` has an unsupported dtype or rank, or `transforms` a rank other than 1 or 2.
    ValueError: `interpolation` is not NEAREST or BILINEAR, or `output_shape` has not 2 entries.
  """
  with tf.compat.v1.name_scope(name, "transform"):
    images, restore = _as_nhwc(images, "transform")
    transforms = tf.convert_to_tensor(transforms, name="transforms", dtype=tf.float32)
    if transforms.get_shape().ndims == 1:
      transforms = transforms[None]
    elif transforms.get_shape().ndims != 2:
      raise TypeError("transform: transforms must have rank 1 (8,) or 2 (N, 8); got shape %s"
                      % transforms.get_shape())
    mode = str(interpolation).upper()
    if mode not in _INTERPOLATIONS:
      raise ValueError("transform: interpolation must be one of %s; got %r"
                       % (_INTERPOLATIONS, interpolation))
    if output_shape is None:
      output_shape = tf.shape(images)[1:3]
    else:
      output_shape = tf.convert_to_tensor(output_shape, tf.int32, name="output_shape")
      if not output_shape.get_shape().is_compatible_with([2]):
        raise ValueError("transform: output_shape must be [height, width]; got shape %s"
                         % output_shape.get_shape())
    output = tf.raw_ops.ImageProjectiveTransformV3(
        images=images, transforms=transforms, output_shape=output_shape,
        fill_value=tf.constant(0.0, tf.float32), interpolation=mode, fill_mode="CONSTANT")
    return restore(output)


def angles_to_projective_transforms(angles, image_height, image_width, name=None):
  """The transforms that rotate images of the given size by `angles` about their centre.

  Args:
    angles: a scalar angle in radians (counter-clockwise), or a vector, one per image.
    image_height: the images' height (a number or a tensor).
    image_width: the images' width.
    name: the op's name scope.

  Returns:
    A float32 tensor of shape (num_angles, 8) for `transform`.

  Raises:
    TypeError: `angles` has rank above 1.
  """
  with tf.compat.v1.name_scope(name, "angles_to_projective_transforms"):
    angles = tf.convert_to_tensor(angles, name="angles", dtype=tf.float32)
    if angles.get_shape().ndims == 0:
      angles = angles[None]
    elif angles.get_shape().ndims != 1:
      raise TypeError("angles must be a scalar or a vector; got shape %s" % angles.get_shape())
    height = tf.cast(image_height, tf.float32)
    width = tf.cast(image_width, tf.float32)
    cos, sin = tf.cos(angles), tf.sin(angles)
    x_offset = ((width - 1) - (cos * (width - 1) - sin * (height - 1))) / 2.0
    y_offset = ((height - 1) - (sin * (width - 1) + cos * (height - 1))) / 2.0
    num_angles = tf.shape(angles)[0]
    return tf.concat([cos[:, None], -sin[:, None], x_offset[:, None], sin[:, None], cos[:, None],
                      y_offset[:, None], tf.zeros((num_angles, 2), tf.float32)], axis=1)


def translations_to_projective_transforms(translations, name=None):
  """The transforms that move images by `translations` ([dx, dy], or one per image).

  Args:
    translations: a vector [dx, dy] or an (N, 2) tensor.
    name: the op's name scope.

  Returns:
    A float32 tensor of shape (N, 8) for `transform`.

  Raises:
    TypeError: `translations` has rank other than 1 or 2.
  """
  with tf.compat.v1.name_scope(name, "translations_to_projective_transforms"):
    translations = tf.convert_to_tensor(translations, name="translations", dtype=tf.float32)
    if translations.get_shape().ndims == 1:
      translations = translations[None]
    elif translations.get_shape().ndims != 2:
      raise TypeError("translations must be [dx, dy] or (N, 2); got shape %s"
                      % translations.get_shape())
    n = tf.shape(translations)[0]
    ones, zeros = tf.ones((n, 1), tf.float32), tf.zeros((n, 1), tf.float32)
    return tf.concat([ones, zeros, -translations[:, 0, None], zeros, ones,
                      -translations[:, 1, None], tf.zeros((n, 2), tf.float32)], axis=1)


def rotate(images, angles, interpolation="NEAREST", name=None):
  """Rotates image(s) counter-clockwise by `angles` (radians) about their centre; corners read zeros.

  Args:
    images: (N, H, W, C), (H, W, C) or (H, W) image(s).
    angles: a scalar, or (for 4-D images) a vector with one angle per image.
    interpolation: "NEAREST" or "BILINEAR".
    name: the op's name scope.

  Returns:
    The rotated image(s), with the dtype and shape of `images`.

  Raises:
    TypeError, ValueError: as `transform`.
  """
  with tf.compat.v1.name_scope(name, "rotate"):
    images4, restore = _as_nhwc(images, "rotate")
    shape = tf.shape(images4)
    transforms = angles_to_projective_transforms(angles, shape[1], shape[2])
    return restore(transform(images4, transforms, interpolation=interpolation))


def translate(images, translations, interpolation="NEAREST", name=None):
  """Moves image(s) by `translations` ([dx, dy] pixels, or one per image); uncovered pixels are zero.

  Args:
    images: (N, H, W, C), (H, W, C) or (H, W) image(s).
    translations: [dx, dy], or (N, 2) for a batch.
    interpolation: "NEAREST" or "BILINEAR".
    name: the op's name scope.

  Returns:
    The translated image(s), with the dtype and shape of `images`.

  Raises:
    TypeError, ValueError: as `transform`.
  """
  with tf.compat.v1.name_scope(name, "translate"):
    return transform(images, translations_to_projective_transforms(translations),
                     interpolation=interpolation)


def flat_transforms_to_matrices(transforms):
  """(N, 8) (or (8,)) transforms -> (N, 3, 3) matrices with a trailing 1."""
  transforms = tf.reshape(tf.convert_to_tensor(transforms, tf.float32), [-1, 8])
  n = tf.shape(transforms)[0]
  return tf.reshape(tf.concat([transforms, tf.ones([n, 1], tf.float32)], axis=1), [-1, 3, 3])


def matrices_to_flat_transforms(transform_matrices):
  """(N, 3, 3) matrices -> (N, 8) transforms, each matrix divided by its last entry."""
  transforms = tf.reshape(tf.convert_to_tensor(transform_matrices, tf.float32), [-1, 9])
  transforms /= transforms[:, 8:9]
  return transforms[:, :8]


def compose_transforms(*transforms):
  """One transform equivalent to applying each of `transforms`, in order, with `transform`.

  Args:
    *transforms: transforms of shape (8,) or (N, 8), all the same shape.

  Returns:
    An (N, 8) float32 tensor.

  Raises:
    ValueError: no transform is given.
  """
  if not transforms:
    raise ValueError("compose_transforms needs at least one transform; got none")
  composed = flat_transforms_to_matrices(transforms[0])
  for tr in transforms[1:]:
    composed = tf.matmul(composed, flat_transforms_to_matrices(tr))
  return matrices_to_flat_transforms(composed)


def interpolate_bilinear(grid, query_points, name="interpolate_bilinear", indexing="ij"):
  """Reads `grid` at fractional points by bilinear interpolation, clamped to the border.

  Args:
    grid: a float tensor (batch, height, width, channels); height and width at least 2.
    query_points: (batch, n, 2) points, (y, x) for indexing "ij" or (x, y) for "xy".
    name: the op's name scope.
    indexing: "ij" or "xy".

  Returns:
    A (batch, n, channels) tensor.

  Raises:
    ValueError: `indexing` is not "ij"/"xy", or `grid` is not 4-D.
  """
  if indexing not in ("ij", "xy"):
    raise ValueError("interpolate_bilinear: indexing must be 'ij' or 'xy'; got %r" % (indexing,))
  with tf.compat.v1.name_scope(name):
    grid = tf.convert_to_tensor(grid)
    query_points = tf.convert_to_tensor(query_points)
    if grid.get_shape().ndims != 4:
      raise ValueError("interpolate_bilinear: grid must be (batch, height, width, channels); "
                       "got shape %s" % grid.get_shape())
    shape = tf.shape(grid)
    batch_size, height, width, channels = shape[0], shape[1], shape[2], shape[3]
    num_queries = tf.shape(query_points)[1]
    queries = tf.unstack(query_points, axis=2, num=2)
    if indexing == "xy":
      queries = queries[::-1]
    floors, ceils, alphas = [], [], []
    for coordinate, size in zip(queries, (height, width)):
      max_floor = tf.cast(size - 2, query_points.dtype)
      floor = tf.minimum(tf.maximum(0.0, tf.floor(coordinate)), max_floor)
      int_floor = tf.cast(floor, tf.int32)
      floors.append(int_floor)
      ceils.append(int_floor + 1)
      alpha = tf.clip_by_value(tf.cast(coordinate - floor, grid.dtype), 0.0, 1.0)
      alphas.append(tf.expand_dims(alpha, 2))
    flattened = tf.reshape(grid, [batch_size * height * width, channels])
    batch_offsets = tf.reshape(tf.range(batch_size) * height * width, [batch_size, 1])

    def gather(y, x):
      values = tf.gather(flattened, batch_offsets + y * width + x)
      return tf.reshape(values, [batch_size, num_queries, channels])

    top_left, top_right = gather(floors[0], floors[1]), gather(floors[0], ceils[1])
    bottom_left, bottom_right = gather(ceils[0], floors[1]), gather(ceils[0], ceils[1])
    top = alphas[1] * (top_right - top_left) + top_left
    bottom = alphas[1] * (bottom_right - bottom_left) + bottom_left
    return alphas[0] * (bottom - top) + top


def dense_image_warp(image, flow, name="dense_image_warp"):
  """Warps `image` by a per-pixel flow: output[b, y, x] = image[b, y - flow[..., 0], x - flow[..., 1]].

  Args:
    image: a float tensor (batch, height, width, channels), height and width at least 2.
    flow: a tensor (batch, height, width, 2) of (dy, dx) displacements, the image's dtype.
    name: the op's name scope.

  Returns:
    The warped image, the same shape and dtype as `image`; points read by bilinear interpolation,
    clamped to the border.
  """
  with tf.compat.v1.name_scope(name):
    image = tf.convert_to_tensor(image)
    flow = tf.convert_to_tensor(flow)
    shape = tf.shape(image)
    batch_size, height, width, channels = shape[0], shape[1], shape[2], shape[3]
    grid_x, grid_y = tf.meshgrid(tf.range(width), tf.range(height))
    grid = tf.cast(tf.stack([grid_y, grid_x], axis=2), flow.dtype)
    query_points = tf.reshape(grid[None] - flow, [batch_size, height * width, 2])
    warped = interpolate_bilinear(image, query_points)
    return tf.reshape(warped, [batch_size, height, width, channels])


def _label_components(images):
  """Numpy labelling of 4-connected equal-valued non-zero regions of (N, H, W) `images`."""
  images = np.asarray(images)
  size = images.size
  # Each pixel points at the smallest flat index in its component (min-label propagation with
  # pointer jumping); equal values and 4-adjacency join pixels, images never join each other.
  labels = np.where(images != 0, np.arange(size).reshape(images.shape), size)
  joins = []
  for axis in (1, 2):
    head = [slice(None)] * 3
    tail = [slice(None)] * 3
    head[axis], tail[axis] = slice(None, -1), slice(1, None)
    joins.append((tuple(head), tuple(tail), (images[tuple(head)] == images[tuple(tail)])
                  & (images[tuple(head)] != 0)))
  flat = labels.reshape(-1)
  while True:
    previous = flat.copy()
    for head, tail, same in joins:
      # Only ever lower a label, so a round that changes nothing means every joined pair agrees.
      labels[head] = np.minimum(labels[head], np.where(same, labels[tail], size))
      labels[tail] = np.minimum(labels[tail], np.where(same, labels[head], size))
    nonzero = flat < size
    flat[nonzero] = flat[flat[nonzero]]  # pointer jumping: follow the root's own label
    if np.array_equal(previous, flat):
      break
  _, ids = np.unique(np.where(flat < size, flat, -1), return_inverse=True)
  ids = ids.reshape(images.shape).astype(np.int64)
  # np.unique sorts roots by flat index, i.e. by each component's first pixel; 0 is the background.
  return ids if (flat == size).any() else ids + 1


def connected_components(images):
  """Labels connected regions of equal non-zero value (4-connectivity) with ids 1..n, 0 elsewhere.

  Args:
    images: a 2-D (H, W) or 3-D (N, H, W) tensor (bool or numeric). Ids run across the whole batch,
      in the order of each component's first pixel (image, row, column).

  Returns:
    An int64 tensor of the shape of `images`.

  Raises:
    TypeError: `images` has rank other than 2 or 3.
  """
  with tf.compat.v1.name_scope(None, "connected_components"):
    images = tf.convert_to_tensor(images, name="images")
    rank = images.get_shape().ndims
    if rank not in (2, 3):
      raise TypeError("connected_components: images must be (H, W) or (N, H, W); got shape %s"
                      % images.get_shape())
    batched = images[None] if rank == 2 else images
    ids = tf.numpy_function(_label_components, [batched], tf.int64, stateful=False)
    ids = tf.reshape(ids, tf.shape(batched))
    ids.set_shape(batched.get_shape())
    return ids[0] if rank == 2 else ids


def _greedy_match(distance_mat, num_valid_rows, top_k):
  """TF 1.15's BipartiteMatch kernel in NumPy: take pairs by increasing distance while both ends are free."""
  rows, cols = distance_mat.shape
  valid = rows if num_valid_rows < 0 else int(num_valid_rows + 0.1)
  if valid > rows:
    raise ValueError("There should be at least %d rows in distance_mat, but only got %d rows." % (valid, rows))
  limit = top_k if top_k > 0 else valid * cols
  row_to_col = np.full([rows], -1, np.int32)
  col_to_row = np.full([cols], -1, np.int32)
  order = np.argsort(distance_mat[:valid].astype(np.float32).ravel(), kind="stable")
  matched = 0
  for flat in order:
    row, col = divmod(int(flat), cols)
    if row_to_col[row] == -1 and col_to_row[col] == -1:
      row_to_col[row], col_to_row[col] = col, row
      matched += 1
      if matched >= limit:
        break
  return row_to_col, col_to_row


def bipartite_match(distance_mat, num_valid_rows, top_k=-1, name="bipartite_match"):
  """A greedy minimum-distance matching between the rows and columns of `distance_mat` [rows, columns].

  Pairs are taken in order of increasing distance while both their row and column are unmatched, over the
  first `num_valid_rows` rows (all when negative), up to `top_k` matches (all when not positive). TF 1.15's
  kernel is gone; this runs TF 1.15's algorithm as a `tf.numpy_function` (pairs of equal distance are taken in
  row-major order; TF 1.15's heap took them in an unspecified order).

  Returns:
    (row_to_col_match_indices [rows], col_to_row_match_indices [columns]): int32, -1 where unmatched.
  """
  with tf.compat.v1.name_scope(name, "bipartite_match", [distance_mat, num_valid_rows]):
    distance_mat = tf.convert_to_tensor(distance_mat, tf.float32, name="distance_mat")
    distance_mat.shape.assert_has_rank(2)
    num_valid_rows = tf.reshape(tf.cast(num_valid_rows, tf.float32), [])
    row_to_col, col_to_row = tf.numpy_function(
        lambda d, n: _greedy_match(d, float(n), top_k), [distance_mat, num_valid_rows], [tf.int32, tf.int32],
        stateful=False)
    row_to_col.set_shape(distance_mat.shape[:1])
    col_to_row.set_shape(distance_mat.shape[1:])
    return row_to_col, col_to_row


_EPSILON = 1e-10


def _phi(r, order):
  """The polyharmonic kernel of squared distances r: r^(order/2), times log r for even orders."""
  with tf.name_scope("phi"):
    if order == 1:
      return tf.sqrt(tf.maximum(r, _EPSILON))
    if order == 2:
      return 0.5 * r * tf.math.log(tf.maximum(r, _EPSILON))
    if order == 4:
      return 0.5 * tf.square(r) * tf.math.log(tf.maximum(r, _EPSILON))
    r = tf.maximum(r, _EPSILON)
    if order % 2 == 0:
      return 0.5 * tf.pow(r, 0.5 * order) * tf.math.log(r)
    return tf.pow(r, 0.5 * order)


def _squared_distances(x, y):
  """[b, n, m] squared distances between the points x [b, n, d] and y [b, m, d]."""
  x_norm = tf.expand_dims(tf.reduce_sum(tf.square(x), 2), 2)
  y_norm = tf.expand_dims(tf.reduce_sum(tf.square(y), 2), 1)
  return x_norm - 2 * tf.matmul(x, y, adjoint_b=True) + y_norm


def _pairwise_squared_distances(x):
  gram = tf.matmul(x, x, adjoint_b=True)
  norm = tf.expand_dims(tf.linalg.diag_part(gram), 2)
  return norm - 2 * gram + tf.transpose(norm, [0, 2, 1])


def interpolate_spline(train_points, train_values, query_points, order, regularization_weight=0.0,
                       name="interpolate_spline"):
  """Polyharmonic spline interpolation of `train_values` at `train_points`, read at `query_points`.

  Args:
    train_points: [batch, n, d] points; d must be known statically.
    train_values: [batch, n, k] values; k must be known statically.
    query_points: [batch, m, d].
    order: the kernel's order (1: r, 2: r^2 log r (thin plate), 3: r^3, ...).
    regularization_weight: a ridge on the kernel matrix (0: interpolate exactly).

  Returns:
    [batch, m, k] interpolated values.

  Raises:
    ValueError: d or k is not known statically.
  """
  with tf.name_scope(name):
    train_points = tf.convert_to_tensor(train_points)
    train_values = tf.convert_to_tensor(train_values)
    query_points = tf.convert_to_tensor(query_points)
    with tf.name_scope("solve"):
      b, n, _ = tf.unstack(tf.shape(train_points), num=3)
      d = tf.compat.dimension_value(train_points.shape[-1])
      if d is None:
        raise ValueError("The dimensionality of the input points (d) must be statically-inferrable.")
      k = tf.compat.dimension_value(train_values.shape[-1])
      if k is None:
        raise ValueError("The dimensionality of the output values (k) must be statically-inferrable.")
      dtype = train_points.dtype
      with tf.name_scope("construct_linear_system"):
        # [[A, B], [B^T, 0]] [w; v] = [f; 0]: kernel weights w and an affine part v
        matrix_a = _phi(_pairwise_squared_distances(train_points), order)
        if regularization_weight > 0:
          matrix_a += regularization_weight * tf.expand_dims(tf.eye(n, dtype=dtype), 0)
        matrix_b = tf.concat([train_points, tf.ones_like(train_points[..., :1], dtype=dtype)], 2)
        left = tf.concat([matrix_a, tf.transpose(matrix_b, [0, 2, 1])], 1)
        right = tf.concat([matrix_b, tf.zeros([b, d + 1, d + 1], dtype)], 1)
        lhs = tf.concat([left, right], 2)
        rhs = tf.concat([train_values, tf.zeros([b, d + 1, k], dtype)], 1)
      with tf.name_scope("solve_linear_system"):
        w_v = tf.linalg.solve(lhs, rhs)
        w, v = w_v[:, :n, :], w_v[:, n:, :]
    with tf.name_scope("predict"):
      rbf = tf.matmul(_phi(_squared_distances(query_points, train_points), order), w)
      padded = tf.concat([query_points, tf.ones_like(query_points[..., :1], dtype)], 2)
      return rbf + tf.matmul(padded, v)


def _grid_locations(height, width):
  y, x = np.meshgrid(np.linspace(0, height - 1, height), np.linspace(0, width - 1, width), indexing="ij")
  return np.stack((y, x), -1)


def _batched(array, batch_size):
  return np.tile(np.expand_dims(array, 0), [batch_size] + [1] * array.ndim)


def _boundary_locations(height, width, points_per_edge):
  ys, xs = np.meshgrid(np.linspace(0, height - 1, points_per_edge + 2), np.linspace(0, width - 1, points_per_edge + 2),
                       indexing="ij")
  on_boundary = (xs == 0) | (xs == width - 1) | (ys == 0) | (ys == height - 1)
  return np.stack([ys[on_boundary], xs[on_boundary]], axis=-1)


def sparse_image_warp(image, source_control_point_locations, dest_control_point_locations, interpolation_order=2,
                      regularization_weight=0.0, num_boundary_points=0, name="sparse_image_warp"):
  """Warps `image` [batch, h, w, c] so the source control points move to the destination ones.

  The flow at the control points is interpolated over the image with a polyharmonic spline
  (`interpolate_spline`) and applied with `dense_image_warp`; `num_boundary_points` > 0 pins that many points
  per image edge (zero flow). Batch, height and width must be known statically.

  Returns:
    (warped image, dense flows [batch, h, w, 2]).
  """
  image = tf.convert_to_tensor(image)
  source = tf.convert_to_tensor(source_control_point_locations)
  dest = tf.convert_to_tensor(dest_control_point_locations)
  flows = dest - source
  with tf.name_scope(name):
    batch_size, height, width, _ = image.shape.as_list()
    grid = tf.constant(_batched(np.reshape(_grid_locations(height, width), [height * width, 2]), batch_size),
                       image.dtype)
    if num_boundary_points > 0:
      boundary = _boundary_locations(height, width, num_boundary_points - 1)
      points_batch = tf.compat.dimension_value(dest.shape[0])
      dest = tf.concat([dest, tf.constant(_batched(boundary, points_batch), dtype=dest.dtype)], 1)
      flows = tf.concat([flows, tf.constant(_batched(np.zeros([boundary.shape[0], 2]), points_batch),
                                            dtype=dest.dtype)], 1)
    dense_flows = tf.reshape(interpolate_spline(dest, flows, grid, interpolation_order, regularization_weight),
                             [batch_size, height, width, 2])
    return dense_image_warp(image, dense_flows), dense_flows


# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = "tf.image, or tensorflow-addons' tfa.image (archived)"

__getattr__ = _catalog.module_getattr(__name__)
