# A program that imports torch.onnx at the top and exports only when asked (as pytorch/examples'
# word_language_model does with --onnx-export): the import itself must succeed.
import argparse

import torch
import torch.onnx

parser = argparse.ArgumentParser()
parser.add_argument("--onnx-export", type=str, default="")
args = parser.parse_args([])
torch.manual_seed(0)
model = torch.nn.Linear(3, 2)
print(model(torch.ones(1, 3)))
if args.onnx_export:
    torch.onnx.export(model, torch.ones(1, 3), args.onnx_export)
print(torch.onnx.__name__, "exported" if args.onnx_export else "not exported")
