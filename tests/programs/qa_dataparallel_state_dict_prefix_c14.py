# Corpus program modelled on the Stack Overflow answer to "Why must use DataParallel when
# testing?" (nn.DataParallel keeps the model in .module, so its state_dict keys gain a
# "module." prefix; loading them into the plain model raises Missing/Unexpected key(s);
# strip the prefix, or save model.module.state_dict()):
# https://stackoverflow.com/questions/61854165 (mirrored at kiwix.lema.org)
# Changed: CPU only (DataParallel without GPUs runs the module itself); the error is caught and
# printed; strict=False's result and a size mismatch are shown too. Written for gradsh.
import torch
import torch.nn as nn


class NestedUNet(nn.Module):
    def __init__(self, out=16):
        super().__init__()
        self.conv1 = nn.Conv2d(3, out, kernel_size=3, padding=1)


torch.manual_seed(0)
model = NestedUNet()
print(model.state_dict().keys())
model_dp = nn.DataParallel(model)
print(model_dp.state_dict().keys())
print(model_dp.module is model)

pretrained_dict = model_dp.state_dict()
fresh = NestedUNet()
try:
    fresh.load_state_dict(pretrained_dict)
except RuntimeError as e:
    print(e)

result = fresh.load_state_dict(pretrained_dict, strict=False)
print(result)
print(result.missing_keys, result.unexpected_keys)

pretrained_dict = {key.replace("module.", ""): value for key, value in pretrained_dict.items()}
print(fresh.load_state_dict(pretrained_dict))
print(torch.equal(fresh.conv1.weight, model.conv1.weight))

wider = NestedUNet(out=8)
try:
    wider.load_state_dict(model.state_dict())
except RuntimeError as e:
    print(e)
