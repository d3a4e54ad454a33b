"""tf.contrib.training.HParams: the parsing, casting and JSON cases of contrib's own hparam_test."""

import pickle

import pytest

from tf1clip.contrib.training import HParams
from tf1clip.contrib.training import parse_values


def test_empty_hparams_parse_nothing_and_reject_unknown_names():
  hparams = HParams()
  assert hparams.values() == {}
  hparams.parse("")
  with pytest.raises(ValueError, match="Unknown hyperparameter"):
    hparams.parse("xyz=123")


def test_values_parse_and_str_as_in_contrib():
  hparams = HParams(aaa=1, b=2.0, c_c="relu6", d="/a/b=c/d")
  assert hparams.values() == {"aaa": 1, "b": 2.0, "c_c": "relu6", "d": "/a/b=c/d"}
  assert str(hparams) == "[('aaa', 1), ('b', 2.0), ('c_c', 'relu6'), ('d', '/a/b=c/d')]"
  hparams.parse("c_c=relu4, b=-2.0e10")
  assert (hparams.aaa, hparams.b, hparams.c_c) == (1, -2.0e10, "relu4")
  hparams.parse("c_c=,b=0,")
  assert hparams.c_c == "" and hparams.b == 0.0 and isinstance(hparams.b, float)
  hparams.parse('c_c=2.3",b=+2,')
  assert (hparams.b, hparams.c_c) == (2.0, '2.3"')
  hparams.parse("b=1.5,d=/a=b/c/d,aaa=10,")
  assert hparams.values() == {"aaa": 10, "b": 1.5, "c_c": '2.3"', "d": "/a=b/c/d"}
  for bad, message in [("x=123", "Unknown hyperparameter"), ("aaa=poipoi", "Could not parse"),
                       ("aaa=1.0", "Could not parse"), ("b=12x", "Could not parse"),
                       ("aaa=[123]", "Must not pass a list")]:
    with pytest.raises(ValueError, match=message):
      hparams.parse(bad)
  assert hparams.aaa == 10  # failed parses changed nothing


@pytest.mark.parametrize("text,expected", [("true", True), ("True", True), ("1", True),
                                           ("false", False), ("False", False), ("0", False)])
def test_bool_parsing(text, expected):
  for initial in (False, True):
    hparams = HParams(use_gpu=initial).parse("use_gpu=" + text)
    assert hparams.use_gpu is expected
  with pytest.raises(ValueError, match=r"Could not parse.*use_gpu"):
    HParams(use_gpu=True).parse("use_gpu=yep")


def test_lists():
  hparams = HParams(aaa=[1], b=[2.0, 3.0], c_c=["relu6"])
  hparams.parse("aaa=[12,34,56]")
  assert hparams.aaa == [12, 34, 56]
  hparams.parse("c_c=[relu4,relu12],b=[1.0]")
  assert (hparams.c_c, hparams.b) == (["relu4", "relu12"], [1.0])
  hparams.parse("c_c=[],aaa=[-34]")
  assert (hparams.aaa, hparams.c_c) == ([-34], [])
  hparams.parse("c_c=[_12,3'4\"],aaa=[+3]")
  assert (hparams.aaa, hparams.c_c) == ([3], ["_12", "3'4\""])
  with pytest.raises(ValueError, match="Could not parse"):
    hparams.parse("aaa=[1.0]")
  with pytest.raises(ValueError, match="Must pass a list"):
    hparams.parse("aaa=123")


def test_names_with_periods_are_getattr_only():
  hparams = HParams()
  hparams.add_hparam(name="a.b", value=0.0)
  hparams.parse("a.b=1.0")
  assert getattr(hparams, "a.b") == 1.0
  hparams.add_hparam(name="d..", value=0.0)
  hparams.parse("d..=10.0")
  assert getattr(hparams, "d..") == 10.0


def test_parse_values_index_assignments_and_reuse():
  assert parse_values("arr[0]=10,arr[5]=20", {"arr": int}) == {"arr": {0: 10, 5: 20}}
  assert parse_values("x=10,arr[1]=20,y=30", {"x": int, "y": int, "arr": int}) == {
      "x": 10, "arr": {1: 20}, "y": 30}
  assert parse_values("a[0]=5,b[1]=true,c[2]=abc,d[3]=3.14",
                      {"a": int, "b": bool, "c": str, "d": float}) == {
                          "a": {0: 5}, "b": {1: True}, "c": {2: "abc"}, "d": {3: 3.14}}
  assert parse_values("arr[0]=10,C=5,arr[1]=20,B[0]=kkk", {"arr": int},
                      ignore_unknown=True) == {"arr": {0: 10, 1: 20}}
  with pytest.raises(ValueError, match="Assignment of a list to a list index."):
    parse_values("arr[1]=[1,2,3]", {"arr": int})
  with pytest.raises(ValueError, match="Unknown hyperparameter type for arr"):
    parse_values("arr[1]=1", {"arr[1]": int})
  for text, name in [("x=1,x=1", "x"), ("arr=[100,200],arr[0]=10", "arr"),
                     ("arr[0]=10,arr[0]=20", r"arr\[0\]"), ("arr[0]=10,arr=[100]", "arr")]:
    with pytest.raises(ValueError, match=r"Multiple assignments to variable '%s'" % name):
      parse_values(text, {"x": int, "arr": int})


def test_json_round_trip_and_formatting():
  hparams = HParams(aaa=1, b=2.0, c_c="relu6", d=True)
  hparams.parse_json('{"aaa": 12, "b": 3.0, "c_c": "relu4", "d": false}')
  assert hparams.values() == {"aaa": 12, "b": 3.0, "c_c": "relu4", "d": False}
  other = HParams(aaa=10, b=20.0, c_c="hello", d=False).parse_json(hparams.to_json())
  assert other.values() == hparams.values()
  single = HParams(aaa=123)
  assert single.to_json() == '{"aaa": 123}'
  assert single.to_json(indent=2) == '{\n  "aaa": 123\n}'
  assert single.to_json(separators=(";", "=")) == '{"aaa"=123}'
  assert HParams(aaa=123, b="hello", c_c=False).to_json(sort_keys=True) == (
      '{"aaa": 123, "b": "hello", "c_c": false}')


def test_set_hparam_and_override_from_dict_cast_only_compatible_values():
  hparams = HParams(int_=1, str_="str", bool_=True, float_=1.1, list_int=[1, 2], none=None)
  for name, value in [("str_", 2.2), ("int_", False), ("bool_", 1), ("int_", 2.2),
                      ("list_int", [2, 3.3]), ("int_", "2")]:
    with pytest.raises(ValueError, match="Could not cast hparam '%s'" % name):
      hparams.set_hparam(name, value)
  hparams.set_hparam("float_", 1)
  assert hparams.float_ == 1.0 and isinstance(hparams.float_, float)
  hparams.set_hparam("none", "1")
  assert hparams.none == "1"
  with pytest.raises(ValueError, match="Must not pass a list"):
    hparams.set_hparam("int_", [1])
  with pytest.raises(ValueError, match="Must pass a list"):
    hparams.set_hparam("list_int", 1)
  with pytest.raises(KeyError):
    hparams.set_hparam("missing", 1)
  hparams = HParams(x=1, b=2.0, d=[0.5]).override_from_dict({"d": [0.1, 0.2, 0.3], "x": -2})
  assert hparams.values() == {"x": -2, "b": 2.0, "d": [0.1, 0.2, 0.3]}


def test_get_checks_the_default_type():
  hparams = HParams(aaa=1, b=2.0, c_c="relu6", d=True, e=[5.0, 6.0])
  assert hparams.get("aaa", 2) == 1 and hparams.get("b", 3) == 2.0
  assert hparams.get("e", [1, 2, 3]) == [5.0, 6.0]
  for name, default in [("aaa", 2.0), ("b", False), ("c_c", [1, 2, 3]), ("d", "relu"),
                        ("e", 123.0), ("e", ["a", "b", "c"])]:
    with pytest.raises(ValueError, match="Hparam '%s' of type" % name):
      hparams.get(name, default)
  assert hparams.get("unknown") is None and hparams.get("unknown", 123) == 123
  assert "aaa" in hparams and "bar" not in hparams


def test_add_del_and_reserved_names():
  hparams = HParams(aaa=1, b=2.0)
  with pytest.raises(ValueError, match="Hyperparameter name is reserved: aaa"):
    hparams.add_hparam("aaa", "will fail")
  with pytest.raises(ValueError, match="reserved: values"):
    hparams.add_hparam("values", 1)
  with pytest.raises(ValueError, match="cannot be empty"):
    hparams.add_hparam("empty", [])
  hparams.del_hparam("aaa")
  hparams.add_hparam("aaa", "will work")
  hparams.set_hparam("aaa", "still works")
  assert hparams.get("aaa") == "still works"
  assert pickle.loads(pickle.dumps(hparams)).values() == hparams.values()


def test_protocol_buffers_are_refused_with_the_json_alternative():
  with pytest.raises(NotImplementedError, match="to_json"):
    HParams(hparam_def=b"\x0a")
