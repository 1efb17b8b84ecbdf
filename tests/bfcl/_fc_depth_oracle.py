# The oracle of fc_depth_oracle_test.ts: BFCL's FC decoding of one function's arguments, with the
# Python frames laid out as BFCL's eval runner lays them when `python eval_runner.py` runs it (the
# module calls runner, which calls the category's file runner, which calls the handler's
# decode_ast, which calls json.loads), since the depth json.loads reaches depends on them. One JSON
# line in (the arguments' text), one out: null if json.loads read it, else str() of its exception.
import json
import sys

assert sys.version_info[:2] == (3, 11), sys.version
assert sys.getrecursionlimit() == 1000


class Handler:
    def decode_ast(self, result, language="Python"):
        decoded_output = []
        for invoked_function in result:
            name = list(invoked_function.keys())[0]
            params = json.loads(invoked_function[name])
            decoded_output.append({name: params})
        return decoded_output


def file_runner(handler, model_result):
    out = []
    for item in model_result:
        try:
            handler.decode_ast(item["result"])
            out.append(None)
        except Exception as e:
            out.append(str(e))
    return out


def runner(texts):
    return file_runner(Handler(), [{"result": [{"f": t}]} for t in texts])


for error in runner([json.loads(line) for line in sys.stdin]):
    print(json.dumps(error))
