# Corpus program, written for gradsh (no code copied). Modelled on the "GNN from scratch"
# notebooks on GitHub that implement Kipf & Welling's graph convolution without PyTorch
# Geometric (for example the GCN layer of https://github.com/tkipf/pygcn, layers.py and
# models.py: a GraphConvolution module with a weight Parameter initialised uniform(-stdv, stdv)
# with stdv = 1 / sqrt(out_features), output = adj @ (input @ weight) + bias, a two-layer GCN
# with ReLU, dropout and log_softmax, the renormalised adjacency D^-1/2 (A + I) D^-1/2, Adam
# with weight decay, nll_loss on the training nodes and accuracy on the rest), plus the
# edge-list form of the same aggregation with index_add_ / scatter_add_ as message passing
# code does it.
# Differences: our own code; a 10-node two-community graph with random features instead of
# Cora; seeded.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)


class GraphConvolution(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = nn.Parameter(torch.FloatTensor(in_features, out_features))
        self.bias = nn.Parameter(torch.FloatTensor(out_features)) if bias else None
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.weight.size(1))
        self.weight.data.uniform_(-stdv, stdv)
        if self.bias is not None:
            self.bias.data.uniform_(-stdv, stdv)

    def forward(self, input, adj):
        support = torch.mm(input, self.weight)
        output = torch.mm(adj, support)
        return output + self.bias if self.bias is not None else output

    def __repr__(self):
        return self.__class__.__name__ + " (" + str(self.in_features) + " -> " + str(self.out_features) + ")"


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


edges = [(0, 1), (0, 2), (1, 2), (2, 3), (3, 4), (1, 4), (5, 6), (5, 7), (6, 7), (7, 8),
         (8, 9), (6, 9), (4, 5)]
n = 10
edge_index = torch.tensor(edges).t()
A = torch.zeros(n, n)
A[edge_index[0], edge_index[1]] = 1.0
A = A + A.t()
A_hat = A + torch.eye(n)
deg = A_hat.sum(dim=1)
d_inv_sqrt = deg.pow(-0.5)
adj = d_inv_sqrt.view(-1, 1) * A_hat * d_inv_sqrt.view(1, -1)
print(deg.tolist())
print(adj[0, :4])
labels = torch.tensor([0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
features = torch.randn(n, 6) + labels.view(-1, 1).float()
idx_train = torch.tensor([0, 1, 5, 6])
idx_test = torch.tensor([2, 3, 4, 7, 8, 9])

model = GCN(nfeat=6, nhid=8, nclass=2, dropout=0.5)
print(model)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)


def accuracy(output, labels):
    preds = output.max(1)[1].type_as(labels)
    correct = preds.eq(labels).double()
    return correct.sum() / len(labels)


for epoch in range(60):
    model.train()
    optimizer.zero_grad()
    output = model(features, adj)
    loss_train = F.nll_loss(output[idx_train], labels[idx_train])
    acc_train = accuracy(output[idx_train], labels[idx_train])
    loss_train.backward()
    optimizer.step()
    if epoch % 20 == 0:
        print("Epoch: {:04d}".format(epoch + 1), "loss_train: {:.4f}".format(loss_train.item()),
              "acc_train: {:.4f}".format(acc_train.item()))
model.eval()
output = model(features, adj)
print("Test set results:", "loss= {:.4f}".format(F.nll_loss(output[idx_test], labels[idx_test]).item()),
      "accuracy= {:.4f}".format(accuracy(output[idx_test], labels[idx_test]).item()))

# the same aggregation from the edge list (messages summed per target node)
src = torch.cat([edge_index[0], edge_index[1], torch.arange(n)])
dst = torch.cat([edge_index[1], edge_index[0], torch.arange(n)])
norm = d_inv_sqrt[src] * d_inv_sqrt[dst]
h = torch.randn(n, 3, requires_grad=True)
messages = h[src] * norm.view(-1, 1)
agg = torch.zeros(n, 3).index_add_(0, dst, messages)
agg2 = torch.zeros(n, 3).scatter_add_(0, dst.view(-1, 1).expand(-1, 3), messages)
print(torch.allclose(agg, adj @ h), torch.allclose(agg, agg2), agg.grad_fn)
agg.sum().backward()
print(h.grad[:3])
print(torch.bincount(dst).tolist())
