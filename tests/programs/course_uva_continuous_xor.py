# Corpus program, written for gradsh (no code copied). Modelled on UvA Deep Learning
# Tutorial 2, "Introduction to PyTorch"
# (https://uvadlc-notebooks.readthedocs.io/en/latest/tutorial_notebooks/tutorial2/Introduction_to_PyTorch.html,
# credited by https://github.com/probabll/ntmi-tutorials): the "Learning by example:
# Continuous XOR" section - an XORDataset(data.Dataset) of noisy points on {0,1}^2 with label
# x0 xor x1, a SimpleClassifier(num_inputs=2, num_hidden=4, num_outputs=1) with Tanh,
# data.DataLoader(batch_size=128, shuffle=True), nn.BCEWithLogitsLoss, SGD(lr=0.1), a
# train_model loop, state_dict saved and loaded into a new model, and eval_model printing
# "Accuracy of the model: ...%".
# Differences: our own code; the state_dict goes through io.BytesIO instead of a file; fewer
# epochs; no tqdm or plots; seeded.
import io

import torch
import torch.nn as nn
import torch.utils.data as data

torch.manual_seed(42)


class XORDataset(data.Dataset):
    def __init__(self, size, std=0.1):
        super().__init__()
        self.size = size
        self.std = std
        self.generate_continuous_xor()

    def generate_continuous_xor(self):
        points = torch.randint(low=0, high=2, size=(self.size, 2), dtype=torch.float32)
        label = (points.sum(dim=1) == 1).to(torch.long)
        points += self.std * torch.randn(points.shape)
        self.data = points
        self.label = label

    def __len__(self):
        return self.size

    def __getitem__(self, idx):
        return self.data[idx], self.label[idx]


class SimpleClassifier(nn.Module):
    def __init__(self, num_inputs, num_hidden, num_outputs):
        super().__init__()
        self.linear1 = nn.Linear(num_inputs, num_hidden)
        self.act_fn = nn.Tanh()
        self.linear2 = nn.Linear(num_hidden, num_outputs)

    def forward(self, x):
        return self.linear2(self.act_fn(self.linear1(x)))


model = SimpleClassifier(num_inputs=2, num_hidden=4, num_outputs=1)
print(model)
for name, param in model.named_parameters():
    print(f"Parameter {name}, shape {param.shape}")

dataset = XORDataset(size=200)
print("Size of dataset:", len(dataset))
print("Data point 0:", dataset[0])
data_loader = data.DataLoader(dataset, batch_size=8, shuffle=True)
data_inputs, data_labels = next(iter(data_loader))
print("Data inputs", data_inputs.shape, "\n", data_inputs)
print("Data labels", data_labels.shape, "\n", data_labels)

loss_module = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_dataset = XORDataset(size=1000)
train_data_loader = data.DataLoader(train_dataset, batch_size=128, shuffle=True)


def train_model(model, optimizer, data_loader, loss_module, num_epochs=30):
    model.train()
    for epoch in range(num_epochs):
        total = 0.0
        for data_inputs, data_labels in data_loader:
            preds = model(data_inputs).squeeze(dim=1)
            loss = loss_module(preds, data_labels.float())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        if epoch % 10 == 9:
            print(f"epoch {epoch + 1}: mean loss {total / len(data_loader):.3f}")


train_model(model, optimizer, train_data_loader, loss_module)
state_dict = model.state_dict()
print(list(state_dict.keys()))
buffer = io.BytesIO()
torch.save(state_dict, buffer)
buffer.seek(0)
new_model = SimpleClassifier(num_inputs=2, num_hidden=4, num_outputs=1)
print(new_model.load_state_dict(torch.load(buffer)))
print(torch.equal(new_model.linear1.weight, model.linear1.weight))

test_dataset = XORDataset(size=500)
test_data_loader = data.DataLoader(test_dataset, batch_size=128, shuffle=False, drop_last=False)


def eval_model(model, data_loader):
    model.eval()
    true_preds, num_preds = 0.0, 0.0
    with torch.no_grad():
        for data_inputs, data_labels in data_loader:
            preds = torch.sigmoid(model(data_inputs).squeeze(dim=1))
            pred_labels = (preds >= 0.5).long()
            true_preds += (pred_labels == data_labels).sum()
            num_preds += data_labels.shape[0]
    acc = true_preds / num_preds
    print(f"Accuracy of the model: {100.0 * acc:4.2f}%")


eval_model(new_model, test_data_loader)
print(len(test_data_loader), type(true_preds := torch.tensor(3) + 0.0).__name__)
