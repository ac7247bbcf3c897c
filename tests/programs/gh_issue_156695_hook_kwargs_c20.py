# Corpus program modelled on pytorch/pytorch issue #156695 ("Hook can only collect positional
# arguments, but not hook keyword arguments", https://github.com/pytorch/pytorch/issues/156695)
# and the APIs its answer points to, from PR #89389 (with_kwargs,
# https://github.com/pytorch/pytorch/pull/89389) and PR #104278 (always_call,
# https://github.com/pytorch/pytorch/pull/104278): a layer called with one positional and
# several keyword arguments; a plain forward hook sees only the positional input, one
# registered with_kwargs=True sees the keywords and a pre hook may rewrite them; prepend
# ordering; an always_call hook runs even when forward raises. Changed: a toy module in place
# of Qwen2DecoderLayer, a seed; what each hook sees printed.
import torch
from torch import nn


class M1(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 4)

    def forward(self, hidden_states, attention_mask=None, scale=1.0, fail=False):
        if fail:
            raise ValueError("forward failed")
        out = self.linear(hidden_states) * scale
        if attention_mask is not None:
            out = out.masked_fill(~attention_mask, 0.0)
        return out


torch.manual_seed(0)
m = M1()
x = torch.randn(2, 4)
mask = torch.tensor([[True, True, False, True], [False, True, True, True]])


def plain_hook(module, args, output):
    print("plain hook:", len(args), [tuple(a.shape) for a in args], tuple(output.shape))


def kw_hook(module, args, kwargs, output):
    print("kwargs hook:", len(args), sorted(kwargs.keys()), kwargs.get("scale"))


def kw_pre_hook(module, args, kwargs):
    print("kwargs pre hook:", sorted(kwargs.keys()))
    kwargs = dict(kwargs)
    kwargs["scale"] = 2.0
    return args, kwargs


def first_hook(module, args, output):
    print("prepended hook runs first")


h1 = m.register_forward_hook(plain_hook)
h2 = m.register_forward_hook(kw_hook, with_kwargs=True)
h3 = m.register_forward_pre_hook(kw_pre_hook, with_kwargs=True)
h4 = m.register_forward_hook(first_hook, prepend=True)
y = m(x, attention_mask=mask, scale=0.5)
print(y)
ref = m.linear(x).mul(2.0).masked_fill(~mask, 0.0)
print(torch.allclose(y, ref))
for h in (h1, h2, h3, h4):
    h.remove()


def pre_positional(module, args):
    print("pre hook args:", len(args))
    return (args[0] * 0,)


h5 = m.register_forward_pre_hook(pre_positional)
print(m(x, scale=3.0))
h5.remove()

calls = []
h6 = m.register_forward_hook(lambda mod, args, out: calls.append("always"), always_call=True)
h7 = m.register_forward_hook(lambda mod, args, out: calls.append("normal"))
try:
    m(x, fail=True)
except ValueError as e:
    print("ValueError:", e)
print(calls)
m(x)
print(calls)
h6.remove()
h7.remove()


def bad_pre(module, args, kwargs):
    return args


m.register_forward_pre_hook(bad_pre, with_kwargs=True)
try:
    m(x, scale=1.0)
except RuntimeError as e:
    print("RuntimeError:", e)
