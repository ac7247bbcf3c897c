# Probe (issue 17): binary_cross_entropy (with logits) with a target of another dtype: PyTorch's
# errors, and the result dtype of the logits form.
import torch
import torch.nn.functional as F
def show(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__ + ":", e)
show(lambda: F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1])))
show(lambda: F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1.], dtype=torch.float64)))
show(lambda: F.binary_cross_entropy(torch.tensor([0.5], dtype=torch.float64), torch.tensor([1.])))
show(lambda: F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1.]), weight=torch.tensor([2.], dtype=torch.float64)))
show(lambda: F.binary_cross_entropy(torch.tensor([1]), torch.tensor([1])))
show(lambda: F.binary_cross_entropy(torch.tensor([1]), torch.tensor([1.])))
show(lambda: F.binary_cross_entropy_with_logits(torch.tensor([0.5]), torch.tensor([1])))
show(lambda: F.binary_cross_entropy_with_logits(torch.tensor([0.5]), torch.tensor([1.], dtype=torch.float64)))
show(lambda: F.binary_cross_entropy_with_logits(torch.tensor([0.5], dtype=torch.float64), torch.tensor([1.])))
show(lambda: F.mse_loss(torch.tensor([0.5]), torch.tensor([1])))
show(lambda: F.l1_loss(torch.tensor([0.5]), torch.tensor([1])))
show(lambda: torch.nn.BCELoss()(torch.tensor([0.2, 0.9]), torch.tensor([0, 1])))
