# Found by corpus10: torch.no_grad() (and the other grad-mode decorators) on a generator
# function: every step of the generator runs under the mode, the caller's mode is untouched
# between steps, and send/throw/close/return values pass through.
import torch


@torch.no_grad()
def sample(w, steps):
    x = torch.ones(2)
    for i in range(steps):
        x = x * w
        got = yield (i, torch.is_grad_enabled(), x.requires_grad)
        if got is not None:
            print("sent", got)
    return "done"


w = torch.tensor([2.0, 3.0], requires_grad=True)
gen = sample(w, 3)
print(next(gen), torch.is_grad_enabled())
print(gen.send("hello"), torch.is_grad_enabled())
print((w * 2).requires_grad)
try:
    next(gen)
    next(gen)
except StopIteration as stop:
    print("StopIteration", stop.value)
print(list(sample(w, 2)))


@torch.enable_grad()
def inner():
    yield torch.is_grad_enabled()


with torch.no_grad():
    print(list(inner()), torch.is_grad_enabled())


@torch.inference_mode()
def infer():
    t = torch.ones(1)
    yield torch.is_inference_mode_enabled(), t.is_inference()


print(list(infer()), torch.is_inference_mode_enabled())


@torch.set_grad_enabled(False)
def off():
    yield torch.is_grad_enabled()


print(list(off()), torch.is_grad_enabled())


@torch.no_grad()
def catcher():
    try:
        yield 1
    except ValueError as e:
        yield ("caught", str(e), torch.is_grad_enabled())


g = catcher()
print(next(g), g.throw(ValueError("boom")))
g.close()
print(torch.is_grad_enabled())
