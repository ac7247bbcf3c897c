# Corpus program, written for gradsh (no code copied). Modelled on labml.ai's annotated Graph
# Attention Networks (MIT licence): labml_nn/graphs/gat/__init__.py (GraphAttentionLayer:
# g.repeat(n, 1, 1) and g.repeat_interleave(n, dim=0) concatenated, LeakyReLU scores,
# masked_fill(adj_mat == 0, -inf), nn.Softmax(dim=1), einsum 'ijh,jhf->ihf', concat or mean of
# heads), labml_nn/graphs/gatv2/__init__.py (GraphAttentionV2Layer: linear_l / linear_r summed
# before the activation, share_weights) and the experiments (gat/experiment.py: the Cora
# adjacency as torch.eye(n, dtype=torch.bool) plus symmetric edges, unsqueeze(-1), a randperm
# split, GAT with ELU and dropout, Adam(lr=0.005, weight_decay=0.0005), accuracy from
# argmax().eq().sum().item(); gatv2/experiment.py with dropout 0.7):
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/tree/master/labml_nn/graphs/gat
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/tree/master/labml_nn/graphs/gatv2
# Differences: a synthetic 60-node citation graph (3 communities, seeded edges, bag-of-words
# features normalised by row sums like Cora's) instead of downloading Cora; n_hidden 16,
# 4 heads; 25 epochs each; printed numbers instead of labml's tracker.
import torch
from torch import nn


class GraphAttentionLayer(nn.Module):
    def __init__(self, in_features, out_features, n_heads, is_concat=True, dropout=0.6,
                 leaky_relu_negative_slope=0.2):
        super().__init__()
        self.is_concat = is_concat
        self.n_heads = n_heads
        if is_concat:
            assert out_features % n_heads == 0
            self.n_hidden = out_features // n_heads
        else:
            self.n_hidden = out_features
        self.linear = nn.Linear(in_features, self.n_hidden * n_heads, bias=False)
        self.attn = nn.Linear(self.n_hidden * 2, 1, bias=False)
        self.activation = nn.LeakyReLU(negative_slope=leaky_relu_negative_slope)
        self.softmax = nn.Softmax(dim=1)
        self.dropout = nn.Dropout(dropout)

    def forward(self, h, adj_mat):
        n_nodes = h.shape[0]
        g = self.linear(h).view(n_nodes, self.n_heads, self.n_hidden)
        g_repeat = g.repeat(n_nodes, 1, 1)
        g_repeat_interleave = g.repeat_interleave(n_nodes, dim=0)
        g_concat = torch.cat([g_repeat_interleave, g_repeat], dim=-1)
        g_concat = g_concat.view(n_nodes, n_nodes, self.n_heads, 2 * self.n_hidden)
        e = self.activation(self.attn(g_concat))
        e = e.squeeze(-1)
        e = e.masked_fill(adj_mat == 0, float('-inf'))
        a = self.softmax(e)
        a = self.dropout(a)
        attn_res = torch.einsum('ijh,jhf->ihf', a, g)
        if self.is_concat:
            return attn_res.reshape(n_nodes, self.n_heads * self.n_hidden)
        else:
            return attn_res.mean(dim=1)


class GraphAttentionV2Layer(nn.Module):
    def __init__(self, in_features, out_features, n_heads, is_concat=True, dropout=0.6,
                 leaky_relu_negative_slope=0.2, share_weights=False):
        super().__init__()
        self.is_concat = is_concat
        self.n_heads = n_heads
        self.share_weights = share_weights
        if is_concat:
            assert out_features % n_heads == 0
            self.n_hidden = out_features // n_heads
        else:
            self.n_hidden = out_features
        self.linear_l = nn.Linear(in_features, self.n_hidden * n_heads, bias=False)
        if share_weights:
            self.linear_r = self.linear_l
        else:
            self.linear_r = nn.Linear(in_features, self.n_hidden * n_heads, bias=False)
        self.attn = nn.Linear(self.n_hidden, 1, bias=False)
        self.activation = nn.LeakyReLU(negative_slope=leaky_relu_negative_slope)
        self.softmax = nn.Softmax(dim=1)
        self.dropout = nn.Dropout(dropout)

    def forward(self, h, adj_mat):
        n_nodes = h.shape[0]
        g_l = self.linear_l(h).view(n_nodes, self.n_heads, self.n_hidden)
        g_r = self.linear_r(h).view(n_nodes, self.n_heads, self.n_hidden)
        g_l_repeat = g_l.repeat(n_nodes, 1, 1)
        g_r_repeat_interleave = g_r.repeat_interleave(n_nodes, dim=0)
        g_sum = g_l_repeat + g_r_repeat_interleave
        g_sum = g_sum.view(n_nodes, n_nodes, self.n_heads, self.n_hidden)
        e = self.attn(self.activation(g_sum))
        e = e.squeeze(-1)
        e = e.masked_fill(adj_mat == 0, float('-inf'))
        a = self.softmax(e)
        a = self.dropout(a)
        attn_res = torch.einsum('ijh,jhf->ihf', a, g_r)
        if self.is_concat:
            return attn_res.reshape(n_nodes, self.n_heads * self.n_hidden)
        else:
            return attn_res.mean(dim=1)


class GAT(nn.Module):
    def __init__(self, layer_cls, in_features, n_hidden, n_classes, n_heads, dropout, **kwargs):
        super().__init__()
        self.layer1 = layer_cls(in_features, n_hidden, n_heads, is_concat=True, dropout=dropout, **kwargs)
        self.activation = nn.ELU()
        self.output = layer_cls(n_hidden, n_classes, 1, is_concat=False, dropout=dropout, **kwargs)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, adj_mat):
        x = self.dropout(x)
        x = self.layer1(x, adj_mat)
        x = self.activation(x)
        x = self.dropout(x)
        return self.output(x, adj_mat)


def accuracy(output, labels):
    return output.argmax(dim=-1).eq(labels).sum().item() / len(labels)


torch.manual_seed(5)
n_nodes, n_words, n_classes = 60, 40, 3
labels = torch.arange(n_nodes) % n_classes
word_probs = torch.rand(n_classes, n_words) ** 3
features = torch.bernoulli(word_probs[labels].clamp(max=0.9))
features[:, 0] = 1.0
features = features / features.sum(dim=1, keepdim=True)
adj_mat = torch.eye(n_nodes, dtype=torch.bool)
for _ in range(150):
    e1, e2 = torch.randint(0, n_nodes, (2,)).tolist()
    if labels[e1] == labels[e2] or torch.rand(()) < 0.2:
        adj_mat[e1][e2] = True
        adj_mat[e2][e1] = True
print(features.shape, features.sum(1)[:4], adj_mat.sum(), adj_mat.dtype)
edges_adj = adj_mat.unsqueeze(-1)
idx_rand = torch.randperm(len(labels))
idx_train = idx_rand[:30]
idx_valid = idx_rand[30:]
print(idx_train[:10])

layer = GraphAttentionLayer(n_words, 8, 2, dropout=0.0)
out = layer(features[:5], adj_mat[:5, :5].unsqueeze(-1))
print(out.shape, out.grad_fn)
layer2 = GraphAttentionV2Layer(n_words, 8, 1, is_concat=False, dropout=0.0, share_weights=True)
print(layer2.linear_l is layer2.linear_r, [n for n, _ in layer2.named_parameters()])
print(layer2(features[:5], adj_mat[:5, :5].unsqueeze(-1)))

loss_func = nn.CrossEntropyLoss()
for name, layer_cls, dropout, kwargs in (("gat", GraphAttentionLayer, 0.6, {}),
                                         ("gatv2", GraphAttentionV2Layer, 0.7, {"share_weights": False})):
    torch.manual_seed(1)
    model = GAT(layer_cls, n_words, 16, n_classes, 4, dropout, **kwargs)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.005, weight_decay=0.0005)
    print(model)
    for epoch in range(25):
        model.train()
        optimizer.zero_grad()
        output = model(features, edges_adj)
        loss = loss_func(output[idx_train], labels[idx_train])
        loss.backward()
        optimizer.step()
        train_acc = accuracy(output[idx_train], labels[idx_train])
        model.eval()
        with torch.no_grad():
            output = model(features, edges_adj)
            valid_loss = loss_func(output[idx_valid], labels[idx_valid])
        if epoch % 5 == 4:
            print(f"{name} epoch {epoch + 1}: loss.train {loss.item():.5f} accuracy.train {train_acc:.3f} "
                  f"loss.valid {valid_loss.item():.5f} accuracy.valid {accuracy(output[idx_valid], labels[idx_valid]):.3f}")
    print(output[:3])
