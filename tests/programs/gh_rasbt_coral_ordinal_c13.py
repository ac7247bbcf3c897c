# Corpus program, written for gradsh (no code copied). Modelled on Sebastian Raschka's
# deeplearning-models notebook "CORAL MLP for predicting cement strength" (MIT):
# https://github.com/rasbt/deeplearning-models/blob/master/pytorch_ipynb/ordinal/CORAL_cement.ipynb
# Like the original: a Dataset over NumPy arrays (features cast with astype(np.float32),
# integer labels) so that DataLoader's default collate turns NumPy rows into tensors; an MLP
# of bias-free Linear, LeakyReLU, Dropout(0.2) and BatchNorm1d; the CoralLayer (a one-output
# Linear without bias plus an nn.Parameter of descending biases from
# torch.arange(num_classes - 1, 0, -1).float() / (num_classes - 1)); levels_from_labelbatch;
# coral_loss from F.logsigmoid; Adam; the MAE / MSE evaluation with
# proba_to_label (torch.sigmoid > 0.5 summed); the "Training on" device print.
# Differences: the cement CSV (a download) is replaced by 200 synthetic rows with 8 features
# and 5 ordered classes, standardised by hand with NumPy instead of sklearn; the
# coral_pytorch package's functions are written out; 12 epochs; seeded.
import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

rng = np.random.RandomState(1)
X = rng.normal(size=(200, 8))
score = X @ rng.uniform(0.2, 1.0, size=8) + 0.3 * rng.normal(size=200)
y = np.digitize(score, np.quantile(score, [0.2, 0.4, 0.6, 0.8]))
print('Number of features:', X.shape[1])
print('Number of examples:', X.shape[0])
print('Labels:', np.unique(y))
X_train, X_test, y_train, y_test = X[:160], X[160:], y[:160], y[160:]
mu, sigma = X_train.mean(axis=0), X_train.std(axis=0)
X_train_std = (X_train - mu) / sigma
X_test_std = (X_test - mu) / sigma

random_seed = 1
learning_rate = 0.05
num_epochs = 12
batch_size = 32
NUM_CLASSES = 5
DEVICE = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
print('Training on', DEVICE)


class MyDataset(Dataset):
    def __init__(self, feature_array, label_array, dtype=np.float32):
        self.features = feature_array.astype(np.float32)
        self.labels = label_array

    def __getitem__(self, index):
        inputs = self.features[index]
        label = self.labels[index]
        return inputs, label

    def __len__(self):
        return self.labels.shape[0]


torch.manual_seed(random_seed)
train_dataset = MyDataset(X_train_std, y_train)
test_dataset = MyDataset(X_test_std, y_test)
train_loader = DataLoader(dataset=train_dataset, batch_size=batch_size, shuffle=True,
                          num_workers=0)
test_loader = DataLoader(dataset=test_dataset, batch_size=batch_size, shuffle=False,
                         num_workers=0)
for inputs, labels in train_loader:
    print('Input batch dimensions:', inputs.shape, inputs.dtype)
    print('Input label dimensions:', labels.shape, labels.dtype)
    print(labels[:10])
    break


class CoralLayer(torch.nn.Module):
    def __init__(self, size_in, num_classes, preinit_bias=True):
        super().__init__()
        self.size_in, self.size_out = size_in, 1
        self.coral_weights = torch.nn.Linear(self.size_in, 1, bias=False)
        if preinit_bias:
            self.coral_bias = torch.nn.Parameter(
                torch.arange(num_classes - 1, 0, -1).float() / (num_classes - 1))
        else:
            self.coral_bias = torch.nn.Parameter(torch.zeros(num_classes - 1).float())

    def forward(self, x):
        return self.coral_weights(x) + self.coral_bias


class MLP(torch.nn.Module):
    def __init__(self, in_features, num_classes, num_hidden_1=32, num_hidden_2=32):
        super().__init__()
        self.my_network = torch.nn.Sequential(
            torch.nn.Linear(in_features, num_hidden_1, bias=False),
            torch.nn.LeakyReLU(),
            torch.nn.Dropout(0.2),
            torch.nn.BatchNorm1d(num_hidden_1),
            torch.nn.Linear(num_hidden_1, num_hidden_2, bias=False),
            torch.nn.LeakyReLU(),
            torch.nn.Dropout(0.2),
            torch.nn.BatchNorm1d(num_hidden_2))
        self.fc = CoralLayer(size_in=num_hidden_2, num_classes=num_classes)

    def forward(self, x):
        return self.fc(self.my_network(x))


def levels_from_labelbatch(labels, num_classes, dtype=torch.float32):
    levels = []
    for label in labels:
        int_label = int(label)
        levels_from_label = [1] * int_label + [0] * (num_classes - 1 - int_label)
        levels.append(torch.tensor(levels_from_label, dtype=dtype))
    return torch.stack(levels)


def coral_loss(logits, levels, importance_weights=None, reduction='mean'):
    term1 = (F.logsigmoid(logits) * levels + (F.logsigmoid(logits) - logits) * (1 - levels))
    if importance_weights is not None:
        term1 *= importance_weights
    val = (-torch.sum(term1, dim=1))
    if reduction == 'mean':
        return torch.mean(val)
    return val


def proba_to_label(probas):
    predict_levels = probas > 0.5
    return torch.sum(predict_levels, dim=1)


model = MLP(in_features=8, num_classes=NUM_CLASSES)
model.to(DEVICE)
print(model.fc.coral_bias)
print(model)
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
print(levels_from_labelbatch(torch.tensor([0, 4, 2]), NUM_CLASSES))

for epoch in range(num_epochs):
    model = model.train()
    for batch_idx, (features, class_labels) in enumerate(train_loader):
        levels = levels_from_labelbatch(class_labels, num_classes=NUM_CLASSES)
        features = features.to(DEVICE)
        levels = levels.to(DEVICE)
        logits = model(features)
        loss = coral_loss(logits, levels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if not batch_idx % 200:
            print('Epoch: %03d/%03d | Batch %03d/%03d | Loss: %.4f'
                  % (epoch + 1, num_epochs, batch_idx, len(train_loader), loss))


def compute_mae_and_mse(model, data_loader, device):
    with torch.no_grad():
        mae, mse, num_examples = 0., 0., 0
        for i, (features, targets) in enumerate(data_loader):
            features = features.to(device)
            targets = targets.float().to(device)
            logits = model(features)
            probas = torch.sigmoid(logits)
            predicted_labels = proba_to_label(probas).float()
            num_examples += targets.size(0)
            mae += torch.sum(torch.abs(predicted_labels - targets))
            mse += torch.sum((predicted_labels - targets)**2)
        mae = mae / num_examples
        mse = mse / num_examples
        return mae, mse


model.eval()
train_mae, train_mse = compute_mae_and_mse(model, train_loader, DEVICE)
test_mae, test_mse = compute_mae_and_mse(model, test_loader, DEVICE)
print(f'Mean absolute error (train/test): {train_mae:.2f} | {test_mae:.2f}')
print(f'Mean squared error (train/test): {train_mse:.2f} | {test_mse:.2f}')
print(train_mae, test_mse)
with torch.no_grad():
    probas = torch.sigmoid(model(torch.from_numpy(X_test_std[:4].astype(np.float32))))
print(probas)
print(proba_to_label(probas), y_test[:4])
