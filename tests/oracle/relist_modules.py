"""Run inside TF 1.15 (Python 3.7): list a sample of module paths live, as tf1clip/tf115/generate_modules.py does.

    .venv-tf115/bin/python tests/oracle/relist_modules.py GENERATOR REQUEST.json OUT.json

A fresh process imports only the requested modules (not all 2,000 first, as the generator does), lists them with
the generator's own functions (loaded by path: this file imports nothing from tf1clip) and answers, for each
requested (module, name, home module, home name), whether TF 1.15 gives the very same object under both pairs.
tests/oracle/test_module_paths.py compares the answer with the committed tf1clip/tf115/modules.tsv.gz.
"""

import importlib.util
import json
import sys


def main(argv):
  generator_path, request_path, out_path = argv
  spec = importlib.util.spec_from_file_location("tf115_generate_modules", generator_path)
  generator = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(generator)
  with open(request_path) as f:
    request = json.load(f)
  tf, tf_decorator, root = generator.start_tensorflow()
  modules, errors = generator.import_each(request["modules"], root)
  public, _keep = generator.public_objects(tf)
  rows = []
  for module, name, kind, obj, target, flags in generator.rows_of(modules, errors, tf_decorator):
    same_as = ""
    if obj is not None and kind not in ("constant", "import-error"):
      same_as = public.get(generator._key(obj), "")  # pylint: disable=protected-access
    rows.append([module, name, kind, same_as, target, flags])
  same = {}
  for key, (module, name, home_module, home_name) in sorted(request["homes"].items()):
    generator.import_each([home_module], root)
    try:
      same[key] = getattr(sys.modules[module], name) is getattr(sys.modules[home_module], home_name)
    except Exception as e:  # pylint: disable=broad-except
      same[key] = "%s: %s" % (type(e).__name__, e)
  with open(out_path, "w") as f:
    json.dump({"rows": rows, "same": same}, f)


if __name__ == "__main__":
  main(sys.argv[1:])
