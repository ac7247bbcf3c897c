# Corpus program, written for gradsh (no code copied). Modelled on Phillip Lippe's UvA Deep
# Learning tutorial 7 "Graph Neural Networks" (MIT):
# https://github.com/phlippe/uvadlc_notebooks/blob/master/docs/tutorial_notebooks/tutorial7/GNN_overview.ipynb
# Like the original: a GCNLayer (Linear projection, bmm with the adjacency matrix, division by
# the neighbour count from sum(dim=-1, keepdims=True)) checked on the 4-node example with an
# identity projection; a GATLayer (xavier_uniform_(gain=1.414) on the projection and on the
# attention vector `a`, edges from adj_matrix.nonzero(as_tuple=False), index_select of both
# endpoints, einsum('bhc,hc->bh'), LeakyReLU(0.2), the attention matrix filled with -9e15 and
# written through a boolean mask from repeat(), softmax over neighbours, einsum('bijh,bjhc->
# bihc'), concatenated or averaged heads) with its printed attention probabilities.
# Differences: the torch_geometric parts are replaced by a small node-classification loop on a
# random graph (two GAT layers, Adam, 30 steps printing the loss); seeded.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(42)


class GCNLayer(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.projection = nn.Linear(c_in, c_out)

    def forward(self, node_feats, adj_matrix):
        num_neighbours = adj_matrix.sum(dim=-1, keepdims=True)
        node_feats = self.projection(node_feats)
        node_feats = torch.bmm(adj_matrix, node_feats)
        node_feats = node_feats / num_neighbours
        return node_feats


node_feats = torch.arange(8, dtype=torch.float32).view(1, 4, 2)
adj_matrix = torch.Tensor([[[1, 1, 0, 0],
                            [1, 1, 1, 1],
                            [0, 1, 1, 1],
                            [0, 1, 1, 1]]])
print("Node features:\n", node_feats)
print("\nAdjacency matrix:\n", adj_matrix)
layer = GCNLayer(c_in=2, c_out=2)
layer.projection.weight.data = torch.Tensor([[1., 0.], [0., 1.]])
layer.projection.bias.data = torch.Tensor([0., 0.])
with torch.no_grad():
    out_feats = layer(node_feats, adj_matrix)
print("Adjacency matrix", adj_matrix)
print("Input features", node_feats)
print("Output features", out_feats)


class GATLayer(nn.Module):
    def __init__(self, c_in, c_out, num_heads=1, concat_heads=True, alpha=0.2):
        super().__init__()
        self.num_heads = num_heads
        self.concat_heads = concat_heads
        if self.concat_heads:
            assert c_out % num_heads == 0, "Number of output features must be a multiple of the count of heads."
            c_out = c_out // num_heads
        self.projection = nn.Linear(c_in, c_out * num_heads)
        self.a = nn.Parameter(torch.Tensor(num_heads, 2 * c_out))
        self.leakyrelu = nn.LeakyReLU(alpha)
        nn.init.xavier_uniform_(self.projection.weight.data, gain=1.414)
        nn.init.xavier_uniform_(self.a.data, gain=1.414)

    def forward(self, node_feats, adj_matrix, print_attn_probs=False):
        batch_size, num_nodes = node_feats.size(0), node_feats.size(1)
        node_feats = self.projection(node_feats)
        node_feats = node_feats.view(batch_size, num_nodes, self.num_heads, -1)
        edges = adj_matrix.nonzero(as_tuple=False)
        node_feats_flat = node_feats.view(batch_size * num_nodes, self.num_heads, -1)
        edge_indices_row = edges[:, 0] * num_nodes + edges[:, 1]
        edge_indices_col = edges[:, 0] * num_nodes + edges[:, 2]
        a_input = torch.cat([
            torch.index_select(input=node_feats_flat, index=edge_indices_row, dim=0),
            torch.index_select(input=node_feats_flat, index=edge_indices_col, dim=0)
        ], dim=-1)
        attn_logits = torch.einsum('bhc,hc->bh', a_input, self.a)
        attn_logits = self.leakyrelu(attn_logits)
        attn_matrix = attn_logits.new_zeros(adj_matrix.shape + (self.num_heads,)).fill_(-9e15)
        attn_matrix[adj_matrix[..., None].repeat(1, 1, 1, self.num_heads) == 1] = attn_logits.reshape(-1)
        attn_probs = F.softmax(attn_matrix, dim=2)
        if print_attn_probs:
            print("Attention probs\n", attn_probs.permute(0, 3, 1, 2))
        node_feats = torch.einsum('bijh,bjhc->bihc', attn_probs, node_feats)
        if self.concat_heads:
            node_feats = node_feats.reshape(batch_size, num_nodes, -1)
        else:
            node_feats = node_feats.mean(dim=2)
        return node_feats


layer = GATLayer(2, 2, num_heads=2)
layer.projection.weight.data = torch.Tensor([[1., 0.], [0., 1.]])
layer.projection.bias.data = torch.Tensor([0., 0.])
layer.a.data = torch.Tensor([[-0.2, 0.3], [0.1, -0.1]])
with torch.no_grad():
    out_feats = layer(node_feats, adj_matrix, print_attn_probs=True)
print("Adjacency matrix", adj_matrix)
print("Input features", node_feats)
print("Output features", out_feats)

# A small node-classification run (stands in for the torch_geometric Cora experiments).
num_nodes, c_in, num_classes = 12, 5, 3
adj = (torch.rand(1, num_nodes, num_nodes) < 0.3).float()
adj = ((adj + adj.transpose(1, 2) + torch.eye(num_nodes)) > 0).float()
x = torch.randn(1, num_nodes, c_in)
labels = torch.randint(0, num_classes, (num_nodes,))
print("edges:", int(adj.sum().item()), "degrees:", adj.sum(-1).long())


class GAT(nn.Module):
    def __init__(self):
        super().__init__()
        self.gat1 = GATLayer(c_in, 8, num_heads=2)
        self.gat2 = GATLayer(8, num_classes, num_heads=2, concat_heads=False)

    def forward(self, x, adj):
        h = F.elu(self.gat1(x, adj))
        return self.gat2(h, adj)


model = GAT()
print(model)
print(model.gat1.a)
optimizer = optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
for step in range(30):
    optimizer.zero_grad()
    out = model(x, adj)[0]
    loss = F.cross_entropy(out, labels)
    loss.backward()
    if step % 5 == 0:
        acc = (out.argmax(dim=-1) == labels).float().mean()
        print(f"step {step:2d} loss {loss.item():.6f} acc {acc.item():.3f} "
              f"grad(a1) {model.gat1.a.grad.norm().item():.6f}")
    optimizer.step()
print(model.gat2.a.grad)
print(out)
