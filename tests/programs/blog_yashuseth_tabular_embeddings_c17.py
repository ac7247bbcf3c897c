# Corpus program, written for gradsh (no code copied). Modelled on Yashu Seth's blog post
# "Deep Learning for Tabular Data using PyTorch":
# https://yashuseth.wordpress.com/2018/07/22/pytorch-neural-network-for-tabular-data-with-categorical-embeddings/
# Like the post: a TabularDataset returning (y, continuous, categorical) from a table, label
# encoded categorical columns with embedding sizes (cardinality, min(50, (cardinality + 1) //
# 2)); FeedForwardNN with an nn.ModuleList of nn.Embedding layers, embedding dropout, a
# BatchNorm1d over the continuous columns, Linear layers initialised with
# nn.init.kaiming_normal_, BatchNorm1d and Dropout after each, the embeddings concatenated with
# the normalised continuous features; trained with MSELoss and Adam over a shuffled DataLoader.
# Added from the usual Kaggle training loop around such models: a validation split, early
# stopping on the validation loss keeping a deepcopy of the best state_dict, and
# ReduceLROnPlateau.
# Differences: a synthetic table (numpy, no pandas or house-prices CSV) with 3 categorical
# and 4 continuous columns; fewer epochs; seeded.
import copy

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, Subset

rng = np.random.RandomState(7)
n = 400
cat_values = {"MSZoning": ["RL", "RM", "FV", "RH", "C"], "Street": ["Pave", "Grvl"],
              "Neighborhood": [f"N{i}" for i in range(12)]}
table = {name: rng.choice(values, size=n) for name, values in cat_values.items()}
table["LotArea"] = rng.lognormal(9, 0.4, size=n)
table["YearBuilt"] = rng.randint(1900, 2010, size=n).astype(float)
table["OverallQual"] = rng.randint(1, 11, size=n).astype(float)
table["GrLivArea"] = rng.normal(1500, 400, size=n)
zone_effect = {"RL": 0.2, "RM": -0.1, "FV": 0.3, "RH": -0.2, "C": -0.5}
table["SalePrice"] = (0.05 * table["OverallQual"] + 0.0003 * table["GrLivArea"]
                      + np.array([zone_effect[z] for z in table["MSZoning"]])
                      + 0.1 * rng.randn(n)).astype(float)

categorical_features = ["MSZoning", "Street", "Neighborhood"]
output_feature = "SalePrice"
label_encoders = {}
for cat_col in categorical_features:
    classes = sorted(set(table[cat_col]))
    label_encoders[cat_col] = {c: i for i, c in enumerate(classes)}
    table[cat_col] = np.array([label_encoders[cat_col][v] for v in table[cat_col]])
print({k: len(v) for k, v in label_encoders.items()})


class TabularDataset(Dataset):
    def __init__(self, data, cat_cols=None, output_col=None):
        self.n = len(data[output_col])
        self.y = data[output_col].astype(np.float32).reshape(-1, 1)
        self.cat_cols = cat_cols if cat_cols else []
        self.cont_cols = [col for col in data if col not in self.cat_cols + [output_col]]
        self.cont_X = np.stack([data[c] for c in self.cont_cols], axis=1).astype(np.float32)
        self.cat_X = np.stack([data[c] for c in self.cat_cols], axis=1).astype(np.int64)

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        return [self.y[idx], self.cont_X[idx], self.cat_X[idx]]


dataset = TabularDataset(data=table, cat_cols=categorical_features, output_col=output_feature)
print(len(dataset), dataset.cont_cols, dataset[0][0], dataset[0][2])
cont_mean, cont_std = dataset.cont_X.mean(0), dataset.cont_X.std(0)
dataset.cont_X = (dataset.cont_X - cont_mean) / cont_std


class FeedForwardNN(nn.Module):
    def __init__(self, emb_dims, no_of_cont, lin_layer_sizes, output_size, emb_dropout, lin_layer_dropouts):
        super().__init__()
        self.emb_layers = nn.ModuleList([nn.Embedding(x, y) for x, y in emb_dims])
        no_of_embs = sum([y for x, y in emb_dims])
        self.no_of_embs = no_of_embs
        self.no_of_cont = no_of_cont
        first_lin_layer = nn.Linear(self.no_of_embs + self.no_of_cont, lin_layer_sizes[0])
        self.lin_layers = nn.ModuleList([first_lin_layer] + [nn.Linear(lin_layer_sizes[i], lin_layer_sizes[i + 1])
                                                             for i in range(len(lin_layer_sizes) - 1)])
        for lin_layer in self.lin_layers:
            nn.init.kaiming_normal_(lin_layer.weight.data)
        self.output_layer = nn.Linear(lin_layer_sizes[-1], output_size)
        nn.init.kaiming_normal_(self.output_layer.weight.data)
        self.first_bn_layer = nn.BatchNorm1d(self.no_of_cont)
        self.bn_layers = nn.ModuleList([nn.BatchNorm1d(size) for size in lin_layer_sizes])
        self.emb_dropout_layer = nn.Dropout(emb_dropout)
        self.droput_layers = nn.ModuleList([nn.Dropout(size) for size in lin_layer_dropouts])

    def forward(self, cont_data, cat_data):
        if self.no_of_embs != 0:
            x = [emb_layer(cat_data[:, i]) for i, emb_layer in enumerate(self.emb_layers)]
            x = torch.cat(x, 1)
            x = self.emb_dropout_layer(x)
        if self.no_of_cont != 0:
            normalized_cont_data = self.first_bn_layer(cont_data)
            if self.no_of_embs != 0:
                x = torch.cat([x, normalized_cont_data], 1)
            else:
                x = normalized_cont_data
        for lin_layer, dropout_layer, bn_layer in zip(self.lin_layers, self.droput_layers, self.bn_layers):
            x = torch.relu(lin_layer(x))
            x = bn_layer(x)
            x = dropout_layer(x)
        x = self.output_layer(x)
        return x


cat_dims = [len(label_encoders[c]) for c in categorical_features]
emb_dims = [(x, min(50, (x + 1) // 2)) for x in cat_dims]
print(emb_dims)
torch.manual_seed(0)
model = FeedForwardNN(emb_dims, no_of_cont=4, lin_layer_sizes=[50, 100], output_size=1,
                      emb_dropout=0.04, lin_layer_dropouts=[0.001, 0.01])
print(model)
print(sum(p.numel() for p in model.parameters()), sum(b.numel() for b in model.buffers()))

perm = torch.randperm(len(dataset)).tolist()
train_ds, valid_ds = Subset(dataset, perm[:320]), Subset(dataset, perm[320:])
train_dl = DataLoader(train_ds, batch_size=64, shuffle=True)
valid_dl = DataLoader(valid_ds, batch_size=80)
y, cont_x, cat_x = next(iter(train_dl))
print(y.shape, y.dtype, cont_x.shape, cont_x.dtype, cat_x.shape, cat_x.dtype)

criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, mode="min", factor=0.5, patience=2)
best_loss, best_state, patience, bad_epochs = float("inf"), None, 4, 0
for epoch in range(25):
    model.train()
    train_losses = []
    for y, cont_x, cat_x in train_dl:
        preds = model(cont_x, cat_x)
        loss = criterion(preds, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        train_losses.append(loss.item())
    model.eval()
    with torch.no_grad():
        val_loss = sum(criterion(model(c, k), t).item() * len(t) for t, c, k in valid_dl) / len(valid_ds)
    scheduler.step(val_loss)
    print(f"epoch {epoch:2d} train {np.mean(train_losses):.5f} valid {val_loss:.5f} lr {optimizer.param_groups[0]['lr']:.5f}")
    if val_loss < best_loss - 1e-4:
        best_loss, bad_epochs = val_loss, 0
        best_state = copy.deepcopy(model.state_dict())
    else:
        bad_epochs += 1
        if bad_epochs >= patience:
            print(f"early stopping at epoch {epoch}, best valid {best_loss:.5f}")
            break
print(model.load_state_dict(best_state))
print(model.first_bn_layer.running_mean, model.first_bn_layer.num_batches_tracked)
print(model.emb_layers[0].weight)
model.eval()
with torch.no_grad():
    t, c, k = next(iter(valid_dl))
    print(torch.cat([model(c, k)[:5], t[:5]], 1))
