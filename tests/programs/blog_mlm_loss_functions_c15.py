# Corpus program, written for gradsh (no code copied). Modelled on Machine Learning Mastery's
# "Loss Functions in PyTorch Models" (Adrian Tam, 2023):
# https://machinelearningmastery.com/loss-functions-in-pytorch-models/
# Like the post: MAE (nn.L1Loss) and MSE (nn.MSELoss) on small prediction/target tensors
# compared with hand-written versions; cross entropy on logits against class indices and
# against probability (one-hot and soft) targets, with nn.CrossEntropyLoss, then
# LogSoftmax + NLLLoss, and by hand; binary cross entropy with nn.BCELoss on sigmoid
# outputs and nn.BCEWithLogitsLoss on logits, and by hand; a custom loss written as a
# function and as an nn.Module (mean absolute percentage error) used in a small linear
# regression with SGD; the reduction options ('none', 'sum').
# Differences: a seed; synthetic data; the regression runs 40 epochs printing every 10th.
import torch
import torch.nn as nn

torch.manual_seed(42)

# Regression losses
pred = torch.tensor([2.5, 0.0, 2.0, 8.0])
target = torch.tensor([3.0, -0.5, 2.0, 7.0])
mae = nn.L1Loss()
mse = nn.MSELoss()
print("MAE:", mae(pred, target))
print("MSE:", mse(pred, target))
print("MAE by hand:", (pred - target).abs().mean())
print("MSE by hand:", ((pred - target) ** 2).mean())
print("MSE reduction='none':", nn.MSELoss(reduction='none')(pred, target))
print("L1 reduction='sum':", nn.L1Loss(reduction='sum')(pred, target))

# Categorical cross entropy
logits = torch.tensor([[2.0, 1.0, 0.1],
                       [0.5, 2.5, 0.3],
                       [1.2, 0.2, 3.1]])
labels = torch.tensor([0, 1, 2])
ce = nn.CrossEntropyLoss()
print("CE (indices):", ce(logits, labels))
onehot = torch.nn.functional.one_hot(labels, num_classes=3).float()
print("one-hot:", onehot)
print("CE (one-hot):", ce(logits, onehot))
soft = torch.tensor([[0.8, 0.1, 0.1],
                     [0.2, 0.7, 0.1],
                     [0.05, 0.05, 0.9]])
print("CE (soft targets):", ce(logits, soft))
logsoftmax = nn.LogSoftmax(dim=1)
nll = nn.NLLLoss()
print("LogSoftmax:", logsoftmax(logits))
print("NLL(LogSoftmax):", nll(logsoftmax(logits), labels))
print("CE by hand:", -(onehot * torch.log(torch.softmax(logits, dim=1))).sum(dim=1).mean())
print("CE reduction='none':", nn.CrossEntropyLoss(reduction='none')(logits, labels))

# Binary cross entropy
bin_logits = torch.tensor([0.8, -1.2, 2.3, -0.4])
bin_target = torch.tensor([1.0, 0.0, 1.0, 1.0])
prob = torch.sigmoid(bin_logits)
print("sigmoid:", prob)
print("BCE:", nn.BCELoss()(prob, bin_target))
print("BCEWithLogits:", nn.BCEWithLogitsLoss()(bin_logits, bin_target))
print("BCE by hand:", -(bin_target * torch.log(prob) + (1 - bin_target) * torch.log(1 - prob)).mean())
print("BCE weight:", nn.BCELoss(weight=torch.tensor([1.0, 2.0, 1.0, 0.5]))(prob, bin_target))


# Custom loss as a function and as a module
def mape_loss(y_pred, y_true):
    return torch.mean(torch.abs((y_true - y_pred) / y_true))


class MAPELoss(nn.Module):
    def __init__(self, eps=1e-8):
        super().__init__()
        self.eps = eps

    def forward(self, y_pred, y_true):
        return torch.mean(torch.abs((y_true - y_pred) / (y_true + self.eps)))


X = torch.linspace(1, 5, 20).reshape(-1, 1)
y = 3 * X + 2 + 0.1 * torch.randn(20, 1)
model = nn.Linear(1, 1)
loss_fn = MAPELoss()
print(loss_fn)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(40):
    y_pred = model(X)
    loss = loss_fn(y_pred, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 10 == 9:
        print(f"epoch {epoch+1}: MAPE {loss.item():.6f}, function version {mape_loss(model(X), y).item():.6f}")
print(model.weight, model.bias)
