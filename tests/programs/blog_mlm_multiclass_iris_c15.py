# Corpus program, written for gradsh (no code copied). Modelled on Machine Learning Mastery's
# "Building a Multiclass Classification Model in PyTorch" (Adrian Tam, 2023):
# https://machinelearningmastery.com/building-a-multiclass-classification-model-in-pytorch/
# Like the post: the labels one-hot encoded (the post uses sklearn's OneHotEncoder) so
# nn.CrossEntropyLoss receives probability targets; a Multiclass module Linear(4, 8) ->
# ReLU -> Linear(8, 3) with hidden/act/output attributes; Adam(lr=0.001); mini-batches of
# 5 sliced from the training tensors; per-epoch training loss and accuracy computed with
# argmax on both the predictions and the one-hot targets; the best weights kept with
# copy.deepcopy(model.state_dict()) and restored with load_state_dict; the final
# cross-entropy and accuracy on the test set; the model's repr.
# Differences: synthetic iris-like data (three Gaussian clusters in 4-D, 150 rows) and a
# fixed 70/30 split made with a seeded torch.randperm instead of sklearn's
# train_test_split; 20 epochs instead of 200; tqdm progress bars left out.
import copy
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)
means = torch.tensor([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.5, 2.0]])
X = torch.cat([means[c] + 0.35 * torch.randn(50, 4) for c in range(3)])
y_idx = torch.arange(3).repeat_interleave(50)
y = torch.zeros(150, 3)
y[torch.arange(150), y_idx] = 1.0
print(X[:3], y[:3], y[-2:], sep='\n')

perm = torch.randperm(150)
train_idx, test_idx = perm[:105], perm[105:]
X_train, y_train = X[train_idx], y[train_idx]
X_test, y_test = X[test_idx], y[test_idx]


class Multiclass(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(4, 8)
        self.act = nn.ReLU()
        self.output = nn.Linear(8, 3)

    def forward(self, x):
        x = self.act(self.hidden(x))
        x = self.output(x)
        return x


model = Multiclass()
print(model)
loss_fn = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=0.001)

n_epochs = 20
batch_size = 5
batches_per_epoch = len(X_train) // batch_size

best_acc = -float('inf')
best_weights = None
train_loss_hist = []
train_acc_hist = []
test_loss_hist = []
test_acc_hist = []

for epoch in range(n_epochs):
    epoch_loss = []
    epoch_acc = []
    model.train()
    for i in range(batches_per_epoch):
        start = i * batch_size
        X_batch = X_train[start:start + batch_size]
        y_batch = y_train[start:start + batch_size]
        y_pred = model(X_batch)
        loss = loss_fn(y_pred, y_batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (torch.argmax(y_pred, 1) == torch.argmax(y_batch, 1)).float().mean()
        epoch_loss.append(float(loss))
        epoch_acc.append(float(acc))
    model.eval()
    y_pred = model(X_test)
    ce = loss_fn(y_pred, y_test)
    acc = (torch.argmax(y_pred, 1) == torch.argmax(y_test, 1)).float().mean()
    ce = float(ce)
    acc = float(acc)
    train_loss_hist.append(sum(epoch_loss) / len(epoch_loss))
    train_acc_hist.append(sum(epoch_acc) / len(epoch_acc))
    test_loss_hist.append(ce)
    test_acc_hist.append(acc)
    if acc > best_acc:
        best_acc = acc
        best_weights = copy.deepcopy(model.state_dict())
    print(f"Epoch {epoch} validation: Cross-entropy={ce:.2f}, Accuracy={acc*100:.1f}%")

model.load_state_dict(best_weights)
print("best acc", best_acc)
print(best_weights.keys())
print(best_weights['output.bias'])
with torch.no_grad():
    probs = torch.softmax(model(X_test[:4]), dim=1)
print(probs)
print(train_loss_hist[-1], train_acc_hist[-1])
