# Corpus program, written for gradsh (no code copied). Modelled on tkipf/pygcn (Kipf and
# Welling's graph convolutional network in PyTorch, MIT): https://github.com/tkipf/pygcn
# Like the original: row-normalised node features and a symmetric adjacency with self-loops
# kept as torch sparse COO tensors (torch.sparse_coo_tensor from an edge list, to_sparse),
# a GraphConvolution layer computing adj @ (x @ W) with torch.spmm, two layers with ReLU and
# dropout, log_softmax and nll_loss on the training nodes, Adam with weight decay, accuracy
# on the validation and test nodes.
# Differences: our own code; a small random graph with two planted communities instead of
# the Cora download; fewer epochs; the sparse tensors' reprs, coalescing and torch.sparse.sum
# are printed; seeded.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

nodes, features, classes = 40, 12, 2
labels = torch.arange(nodes) % classes
same = labels[:, None] == labels[None, :]
probability = torch.where(same, torch.tensor(0.25), torch.tensor(0.03))
upper = torch.triu(torch.rand(nodes, nodes) < probability, diagonal=1)
edges = upper.nonzero().T
edges = torch.cat([edges, edges.flip(0)], dim=1)
print("edges", edges.shape[1])

x = torch.rand(nodes, features) + labels[:, None] * 0.3
row_sum = x.sum(1)
inverse = torch.diag(1.0 / row_sum).to_sparse()
print(inverse._nnz(), inverse.is_coalesced(), inverse.layout)
x = inverse @ x

adj = torch.sparse_coo_tensor(edges, torch.ones(edges.shape[1]), (nodes, nodes))
adj = adj + torch.sparse_coo_tensor(torch.arange(nodes).repeat(2, 1), torch.ones(nodes),
                                    (nodes, nodes))
print(adj.is_coalesced(), adj._nnz())
adj = adj.coalesce()
degree = torch.sparse.sum(adj, dim=1).to_dense()
d_inv_sqrt = degree.pow(-0.5)
rows, cols = adj.indices()
norm_adj = torch.sparse_coo_tensor(adj.indices(),
                                   d_inv_sqrt[rows] * adj.values() * d_inv_sqrt[cols],
                                   adj.shape).coalesce()
print(norm_adj.values()[:6])
print(torch.sparse.sum(norm_adj))


class GraphConvolution(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_features, out_features))
        self.bias = nn.Parameter(torch.empty(out_features))
        stdv = 1.0 / math.sqrt(out_features)
        self.weight.data.uniform_(-stdv, stdv)
        self.bias.data.uniform_(-stdv, stdv)

    def forward(self, x, adj):
        support = torch.mm(x, self.weight)
        return torch.spmm(adj, support) + self.bias


class GCN(nn.Module):
    def __init__(self, nfeat, nhid, nclass, dropout):
        super().__init__()
        self.gc1 = GraphConvolution(nfeat, nhid)
        self.gc2 = GraphConvolution(nhid, nclass)
        self.dropout = dropout

    def forward(self, x, adj):
        x = F.relu(self.gc1(x, adj))
        x = F.dropout(x, self.dropout, training=self.training)
        x = self.gc2(x, adj)
        return F.log_softmax(x, dim=1)


def accuracy(output, target):
    return (output.argmax(1) == target).double().mean()


model = GCN(features, 16, classes, dropout=0.5)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
idx_train, idx_val, idx_test = torch.arange(0, 16), torch.arange(16, 28), torch.arange(28, 40)

for epoch in range(30):
    model.train()
    optimizer.zero_grad()
    output = model(x, norm_adj)
    loss_train = F.nll_loss(output[idx_train], labels[idx_train])
    loss_train.backward()
    optimizer.step()
    if epoch % 5 == 4:
        model.eval()
        output = model(x, norm_adj)
        loss_val = F.nll_loss(output[idx_val], labels[idx_val])
        print(f"Epoch: {epoch + 1:04d} loss_train: {loss_train.item():.4f} "
              f"acc_train: {accuracy(output[idx_train], labels[idx_train]).item():.4f} "
              f"loss_val: {loss_val.item():.4f} "
              f"acc_val: {accuracy(output[idx_val], labels[idx_val]).item():.4f}")

model.eval()
output = model(x, norm_adj)
print("Test set results:", f"loss= {F.nll_loss(output[idx_test], labels[idx_test]).item():.4f}",
      f"accuracy= {accuracy(output[idx_test], labels[idx_test]).item():.4f}")
print(model.gc1.weight.grad[:2])
