# Corpus program, written for gradsh (no code copied). Modelled on labml.ai's annotated
# HyperNetworks (MIT licence): labml_nn/hypernetworks/hyper_lstm.py (HyperLSTMCell: a smaller
# LSTMCell with layer norm producing z_h, z_x, z_b by Linear layers and chunk(4), d_h / d_x /
# d_b ModuleLists scaling the rows of w_h / w_x, ParameterLists of zero-initialised
# nn.Parameter matrices, einsum 'ij,bj->bi', per-gate nn.LayerNorm; HyperLSTM over steps and
# layers with x.new_zeros states and torch.stack / torch.unbind of the state) and
# labml_nn/lstm/__init__.py (LSTMCell with hidden_lin / input_lin, chunk(4, dim=-1), optional
# LayerNorms or nn.Identity), with the experiment's shape (an embedding, the HyperLSTM, a
# readout, cross-entropy):
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/tree/master/labml_nn/hypernetworks
# Differences: a synthetic next-token task (sequence 12, batch 4, vocabulary 11) instead of
# Tiny Shakespeare; sizes shrunk (hidden 16, hyper 8, n_z 4, 2 layers); 6 Adam steps; the
# ParameterList / ModuleList reprs, the state shapes and gradients printed.
import torch
from torch import nn


class LSTMCell(nn.Module):
    def __init__(self, input_size, hidden_size, layer_norm=False):
        super().__init__()
        self.hidden_lin = nn.Linear(hidden_size, 4 * hidden_size)
        self.input_lin = nn.Linear(input_size, 4 * hidden_size, bias=False)
        if layer_norm:
            self.layer_norm = nn.ModuleList([nn.LayerNorm(hidden_size) for _ in range(4)])
            self.layer_norm_c = nn.LayerNorm(hidden_size)
        else:
            self.layer_norm = nn.ModuleList([nn.Identity() for _ in range(4)])
            self.layer_norm_c = nn.Identity()

    def forward(self, x, h, c):
        ifgo = self.hidden_lin(h) + self.input_lin(x)
        ifgo = ifgo.chunk(4, dim=-1)
        ifgo = [self.layer_norm[i](ifgo[i]) for i in range(4)]
        i, f, g, o = ifgo
        c_next = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h_next = torch.sigmoid(o) * torch.tanh(self.layer_norm_c(c_next))
        return h_next, c_next


class HyperLSTMCell(nn.Module):
    def __init__(self, input_size, hidden_size, hyper_size, n_z):
        super().__init__()
        self.hyper = LSTMCell(hidden_size + input_size, hyper_size, layer_norm=True)
        self.z_h = nn.Linear(hyper_size, 4 * n_z)
        self.z_x = nn.Linear(hyper_size, 4 * n_z)
        self.z_b = nn.Linear(hyper_size, 4 * n_z, bias=False)
        self.d_h = nn.ModuleList([nn.Linear(n_z, hidden_size, bias=False) for _ in range(4)])
        self.d_x = nn.ModuleList([nn.Linear(n_z, hidden_size, bias=False) for _ in range(4)])
        self.d_b = nn.ModuleList([nn.Linear(n_z, hidden_size) for _ in range(4)])
        self.w_h = nn.ParameterList([nn.Parameter(torch.zeros(hidden_size, hidden_size)) for _ in range(4)])
        self.w_x = nn.ParameterList([nn.Parameter(torch.zeros(hidden_size, input_size)) for _ in range(4)])
        self.layer_norm = nn.ModuleList([nn.LayerNorm(hidden_size) for _ in range(4)])
        self.layer_norm_c = nn.LayerNorm(hidden_size)

    def forward(self, x, h, c, h_hat, c_hat):
        x_hat = torch.cat((h, x), dim=-1)
        h_hat, c_hat = self.hyper(x_hat, h_hat, c_hat)
        z_h = self.z_h(h_hat).chunk(4, dim=-1)
        z_x = self.z_x(h_hat).chunk(4, dim=-1)
        z_b = self.z_b(h_hat).chunk(4, dim=-1)
        ifgo = []
        for i in range(4):
            d_h = self.d_h[i](z_h[i])
            d_x = self.d_x[i](z_x[i])
            y = d_h * torch.einsum('ij,bj->bi', self.w_h[i], h) + \
                d_x * torch.einsum('ij,bj->bi', self.w_x[i], x) + \
                self.d_b[i](z_b[i])
            ifgo.append(self.layer_norm[i](y))
        i, f, g, o = ifgo
        c_next = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h_next = torch.sigmoid(o) * torch.tanh(self.layer_norm_c(c_next))
        return h_next, c_next, h_hat, c_hat


class HyperLSTM(nn.Module):
    def __init__(self, input_size, hidden_size, hyper_size, n_z, n_layers):
        super().__init__()
        self.n_layers = n_layers
        self.hidden_size = hidden_size
        self.hyper_size = hyper_size
        self.cells = nn.ModuleList([HyperLSTMCell(input_size, hidden_size, hyper_size, n_z)] +
                                   [HyperLSTMCell(hidden_size, hidden_size, hyper_size, n_z) for _ in
                                    range(n_layers - 1)])

    def forward(self, x, state=None):
        n_steps, batch_size = x.shape[:2]
        if state is None:
            h = [x.new_zeros(batch_size, self.hidden_size) for _ in range(self.n_layers)]
            c = [x.new_zeros(batch_size, self.hidden_size) for _ in range(self.n_layers)]
            h_hat = [x.new_zeros(batch_size, self.hyper_size) for _ in range(self.n_layers)]
            c_hat = [x.new_zeros(batch_size, self.hyper_size) for _ in range(self.n_layers)]
        else:
            (h, c, h_hat, c_hat) = state
            h, c = list(torch.unbind(h)), list(torch.unbind(c))
            h_hat, c_hat = list(torch.unbind(h_hat)), list(torch.unbind(c_hat))
        out = []
        for t in range(n_steps):
            inp = x[t]
            for layer in range(self.n_layers):
                h[layer], c[layer], h_hat[layer], c_hat[layer] = \
                    self.cells[layer](inp, h[layer], c[layer], h_hat[layer], c_hat[layer])
                inp = h[layer]
            out.append(h[-1])
        out = torch.stack(out)
        h = torch.stack(h)
        c = torch.stack(c)
        h_hat = torch.stack(h_hat)
        c_hat = torch.stack(c_hat)
        return out, (h, c, h_hat, c_hat)


class AutoregressiveModel(nn.Module):
    def __init__(self, n_vocab, d_model, rnn_model):
        super().__init__()
        self.src_embed = nn.Embedding(n_vocab, d_model)
        self.lstm = rnn_model
        self.generator = nn.Linear(d_model, n_vocab)

    def forward(self, x, state=None):
        x = self.src_embed(x)
        res, state = self.lstm(x, state)
        return self.generator(res), state


torch.manual_seed(0)
cell = HyperLSTMCell(3, 4, 2, 2)
print(cell.w_h)
print(cell.d_b)
print(len(list(cell.parameters())), sum(p.numel() for p in cell.parameters()))
print([name for name, _ in cell.named_parameters()][:12])

seq_len, batch_size, n_vocab = 12, 4, 11
data = torch.randint(0, n_vocab, (seq_len + 1, batch_size))
inputs, target = data[:-1], (data[:-1] * 3 + 1) % n_vocab
model = AutoregressiveModel(n_vocab, 16, HyperLSTM(16, 16, 8, 4, 2))
with torch.no_grad():
    for p in model.lstm.cells[0].w_h:
        p.normal_(0, 0.1)
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
loss_func = nn.CrossEntropyLoss()
state = None
for step in range(6):
    output, state = model(inputs, None)
    loss = loss_func(output.view(-1, n_vocab), target.view(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.5f} "
          f"|w_h grad| {model.lstm.cells[0].w_h[0].grad.norm():.5f} "
          f"|w_x grad| {model.lstm.cells[1].w_x[2].grad.norm():.5f}")
print([s.shape for s in state])
print(state[0].grad_fn, state[2][1, :2])
with torch.no_grad():
    out2, state2 = model(inputs[:3], tuple(s.detach() for s in state))
print(out2.shape, out2[0, 0, :4], state2[1].shape)
print((output.argmax(-1) == target).float().mean())
