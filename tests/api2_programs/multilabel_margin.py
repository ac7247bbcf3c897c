import torch


def bits(t):
    return [float(v).hex() for v in t.detach().double().flatten().tolist()]


torch.manual_seed(0)
x = torch.randn(3, 5, requires_grad=True)
y = torch.tensor([[3, 0, -1, 1, 2], [1, 2, 3, 4, 0], [4, -1, 0, 0, 0]])
for reduction in ("mean", "sum", "none"):
    x.grad = None
    loss = torch.nn.MultiLabelMarginLoss(reduction=reduction)(x, y)
    (loss * torch.linspace(0.5, 1.5, loss.numel()).reshape(loss.shape)).sum().backward()
    print(reduction, type(loss.grad_fn).__name__, bits(loss), bits(x.grad))
v = torch.randn(4, requires_grad=True)
loss = torch.nn.functional.multilabel_margin_loss(v, torch.tensor([2, -1, 0, 0]))
loss.backward()
print(loss, bits(v.grad), torch.nn.MultiLabelMarginLoss())
print(torch.nn.functional.multilabel_margin_loss(v, torch.tensor([2, 1, -1, 0]), reduction="none"))
for bad in (lambda: torch.nn.functional.multilabel_margin_loss(x, y[:1]),
            lambda: torch.nn.functional.multilabel_margin_loss(x, y.float())):
    try:
        bad()
    except RuntimeError as error:
        print(error)
