# torch.testing.assert_close as PyTorch reports: the greatest absolute and relative differences
# and where, scalars, booleans, None, sequences and mappings item by item ("The failure
# occurred for item ..."), unsupported pairs, msg; assert_allclose's FutureWarning;
# make_tensor's random values after a seed (torch/testing's docstrings).
import torch
torch.manual_seed(0)
a = torch.randn(3)
def t(f):
    try:
        f(); print("ok")
    except Exception as e:
        print(type(e).__name__, e)
t(lambda: torch.testing.assert_close(a, a + 1e-7))
t(lambda: torch.testing.assert_close(a, a + 1e-3))
t(lambda: torch.testing.assert_close(a, a.double()))
t(lambda: torch.testing.assert_close(a, a[:2]))
t(lambda: torch.testing.assert_close(torch.tensor([1, 2]), torch.tensor([1, 3])))
t(lambda: torch.testing.assert_close(a, a * 1.01, rtol=0.1, atol=0))
t(lambda: torch.testing.assert_close(a, a * 2, msg="custom"))
t(lambda: torch.testing.assert_close(torch.zeros(2, 3), torch.ones(2, 3)))
t(lambda: torch.testing.assert_close([1.0, 2.0], [1.0, 2.5]))
t(lambda: torch.testing.assert_close({"a": torch.ones(1)}, {"a": torch.zeros(1)}))
t(lambda: torch.testing.assert_close(1.0, 1))
t(lambda: torch.testing.assert_close(torch.ones(2, requires_grad=True), torch.ones(2)))
t(lambda: torch.testing.assert_close(torch.ones(2), torch.ones(2), rtol=1e-3))
t(lambda: torch.testing.assert_allclose(torch.ones(2), torch.ones(2)))
print(torch.testing.make_tensor((2, 2), dtype=torch.float32, device="cpu", low=0, high=1))
import numpy as np
    try:
        f(); print("ok")
    except Exception as e:
        print(type(e).__name__, e)
t(lambda: torch.testing.assert_close(torch.tensor(1.0), torch.tensor(1.1)))
t(lambda: torch.testing.assert_close(torch.tensor([1.0, float("nan")]), torch.tensor([1.0, float("nan")])))
t(lambda: torch.testing.assert_close(torch.tensor([1.0, float("nan")]), torch.tensor([1.0, float("nan")]), equal_nan=True))
t(lambda: torch.testing.assert_close(torch.tensor([0., 1.]), torch.tensor([1e-3, 1.])))
t(lambda: torch.testing.assert_close(torch.ones(2, dtype=torch.float16), torch.ones(2, dtype=torch.float16) * 1.01))
t(lambda: torch.testing.assert_close(torch.ones(2, 2), torch.ones(2, 2).double(), check_dtype=False))
t(lambda: torch.testing.assert_close(torch.arange(4).view(2, 2), torch.tensor([[0, 1], [5, 3]])))
t(lambda: torch.testing.assert_close(True, False))
t(lambda: torch.testing.assert_close(None, 1))
t(lambda: torch.testing.assert_close([1, 2], [1, 2, 3]))
t(lambda: torch.testing.assert_close({"a": 1}, {"b": 1}))
t(lambda: torch.testing.assert_close((torch.ones(1), [2.0, {"k": 3}]), [torch.ones(1), (2.0, {"k": 4})]))
t(lambda: torch.testing.assert_close(np.float32(1.0), np.float32(1.5)))
t(lambda: torch.testing.assert_close(1, 2))
t(lambda: torch.testing.assert_close(torch.ones(2), torch.zeros(2), msg=lambda m: "wrapped: " + m))
t(lambda: torch.testing.assert_close(torch.ones(2), torch.zeros(2), rtol=0.1))
t(lambda: torch.testing.assert_close(torch.ones(2), [1.0, 1.0]))
t(lambda: torch.testing.assert_close("a", "a"))
t(lambda: torch.testing.assert_allclose([1.0, 2.0], torch.tensor([1.0, 2.0001])))
t(lambda: torch.testing.assert_allclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.1])))
print(torch.testing.make_tensor(2, 3, dtype=torch.float32, device="cpu"))
print(torch.testing.make_tensor((4,), dtype=torch.int64, device="cpu"), torch.testing.make_tensor(3, dtype=torch.bool, device="cpu"))
print(torch.testing.make_tensor(2, dtype=torch.float64, device="cpu", low=-1, high=1, requires_grad=True))
