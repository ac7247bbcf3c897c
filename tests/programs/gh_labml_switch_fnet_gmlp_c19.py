# Corpus program, written for gradsh (no code copied). Modelled on three of labml.ai's annotated
# transformer variants (MIT licence): labml_nn/transformers/switch/__init__.py and
# experiment.py (SwitchFeedForward: softmax routing, torch.max over experts,
# torch.eq(routes, i).nonzero(as_tuple=True), capacity with randperm token dropping,
# x.new_zeros / x.new_tensor, experts cloned by clone_module_list (copy.deepcopy), outputs
# scaled by route_prob_max or by route_prob_max / route_prob_max.detach(); the
# load-balancing loss n_experts * (route_frac * route_prob).sum() and route_frac statistics),
# labml_nn/transformers/fnet/__init__.py (FNetMix: torch.fft.fft over the hidden then the
# sequence dimension, torch.real) and labml_nn/transformers/gmlp/__init__.py (GMLPBlock with a
# SpacialGatingUnit: torch.chunk, a Parameter(torch.zeros(n, n).uniform_(-0.01, 0.01)),
# einsum 'ij,jbd->ibd', a causal mask multiplied into the weight):
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/tree/master/labml_nn/transformers/switch
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/tree/master/labml_nn/transformers/fnet
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/tree/master/labml_nn/transformers/gmlp
# Differences: the three mixing/feed-forward blocks assembled into one small model (d_model 16,
# sequence 8, batch 6, 4 experts) trained 10 Adam steps on a seeded next-token toy task
# instead of the Tiny Shakespeare experiments; statistics printed instead of tracked.
import copy

import torch
from torch import nn


def clone_module_list(module, n):
    return nn.ModuleList([copy.deepcopy(module) for _ in range(n)])


class FeedForward(nn.Module):
    def __init__(self, d_model, d_ff, dropout=0.1):
        super().__init__()
        self.layer1 = nn.Linear(d_model, d_ff)
        self.layer2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)
        self.activation = nn.ReLU()

    def forward(self, x):
        return self.layer2(self.dropout(self.activation(self.layer1(x))))


class SwitchFeedForward(nn.Module):
    def __init__(self, *, capacity_factor, drop_tokens, is_scale_prob, n_experts, expert, d_model):
        super().__init__()
        self.capacity_factor = capacity_factor
        self.is_scale_prob = is_scale_prob
        self.n_experts = n_experts
        self.drop_tokens = drop_tokens
        self.experts = clone_module_list(expert, n_experts)
        self.switch = nn.Linear(d_model, n_experts)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x):
        seq_len, batch_size, d_model = x.shape
        x = x.view(-1, d_model)
        route_prob = self.softmax(self.switch(x))
        route_prob_max, routes = torch.max(route_prob, dim=-1)
        indexes_list = [torch.eq(routes, i).nonzero(as_tuple=True)[0] for i in range(self.n_experts)]
        final_output = x.new_zeros(x.shape)
        capacity = int(self.capacity_factor * len(x) / self.n_experts)
        counts = x.new_tensor([len(indexes_list[i]) for i in range(self.n_experts)])
        dropped = []
        if self.drop_tokens:
            for i in range(self.n_experts):
                if len(indexes_list[i]) <= capacity:
                    continue
                indexes_list[i] = indexes_list[i][torch.randperm(len(indexes_list[i]))]
                dropped.append(indexes_list[i][capacity:])
                indexes_list[i] = indexes_list[i][:capacity]
        expert_output = [self.experts[i](x[indexes_list[i], :]) for i in range(self.n_experts)]
        for i in range(self.n_experts):
            final_output[indexes_list[i], :] = expert_output[i]
        if dropped:
            dropped = torch.cat(dropped)
            final_output[dropped, :] = x[dropped, :]
        if self.is_scale_prob:
            final_output = final_output * route_prob_max.view(-1, 1)
        else:
            final_output = final_output * (route_prob_max / route_prob_max.detach()).view(-1, 1)
        final_output = final_output.view(seq_len, batch_size, d_model)
        return final_output, counts, route_prob.sum(0), len(dropped), route_prob_max


class FNetMix(nn.Module):
    def forward(self, query, key, value, mask=None):
        assert query is key and key is value
        assert mask is None
        x = query
        fft_hidden = torch.fft.fft(x, dim=2)
        fft_seq = torch.fft.fft(fft_hidden, dim=0)
        return torch.real(fft_seq)


class SpacialGatingUnit(nn.Module):
    def __init__(self, d_z, seq_len):
        super().__init__()
        self.norm = nn.LayerNorm([d_z // 2])
        self.weight = nn.Parameter(torch.zeros(seq_len, seq_len).uniform_(-0.01, 0.01), requires_grad=True)
        self.bias = nn.Parameter(torch.ones(seq_len), requires_grad=True)

    def forward(self, z, mask=None):
        seq_len = z.shape[0]
        z1, z2 = torch.chunk(z, 2, dim=-1)
        if mask is not None:
            mask = mask[:, :, 0]
        z2 = self.norm(z2)
        weight = self.weight[:seq_len, :seq_len]
        if mask is not None:
            weight = weight * mask
        z2 = torch.einsum('ij,jbd->ibd', weight, z2) + self.bias[:seq_len, None, None]
        return z1 * z2


class GMLPBlock(nn.Module):
    def __init__(self, d_model, d_ffn, seq_len):
        super().__init__()
        self.norm = nn.LayerNorm([d_model])
        self.activation = nn.GELU()
        self.proj1 = nn.Linear(d_model, d_ffn)
        self.sgu = SpacialGatingUnit(d_ffn, seq_len)
        self.proj2 = nn.Linear(d_ffn // 2, d_model)
        self.size = d_model

    def forward(self, *, x, mask=None):
        shortcut = x
        x = self.norm(x)
        z = self.activation(self.proj1(x))
        z = self.sgu(z, mask)
        z = self.proj2(z)
        return z + shortcut


def subsequent_mask(seq_len):
    return torch.tril(torch.ones(seq_len, seq_len)).to(torch.bool).unsqueeze(-1)


class Model(nn.Module):
    def __init__(self, n_tokens, d_model, seq_len, n_experts, drop_tokens, is_scale_prob):
        super().__init__()
        self.embed = nn.Embedding(n_tokens, d_model)
        self.gmlp = GMLPBlock(d_model, 4 * d_model, seq_len)
        self.fnet = FNetMix()
        self.norm_mix = nn.LayerNorm([d_model])
        self.norm_ff = nn.LayerNorm([d_model])
        self.switch = SwitchFeedForward(capacity_factor=1.0, drop_tokens=drop_tokens,
                                        is_scale_prob=is_scale_prob, n_experts=n_experts,
                                        expert=FeedForward(d_model, 2 * d_model, 0.0), d_model=d_model)
        self.out = nn.Linear(d_model, n_tokens)
        self.mask = subsequent_mask(seq_len)

    def forward(self, x):
        x = self.embed(x)
        x = self.gmlp(x=x, mask=self.mask)
        z = self.norm_mix(x)
        x = x + 0.1 * self.fnet(z, z, z)
        ff, counts, route_prob, n_dropped, route_prob_max = self.switch(self.norm_ff(x))
        x = x + ff
        return self.out(x), counts, route_prob, n_dropped, route_prob_max


torch.manual_seed(3)
x = torch.randn(4, 2, 6)
print(FNetMix()(x, x, x)[:, 0, :3])
print(torch.fft.fft(x, dim=2).dtype, torch.fft.fft(x[:, 0, 0]))
sgu = SpacialGatingUnit(8, 4)
print(sgu.weight)
print(sgu(torch.randn(4, 2, 8), subsequent_mask(4)).shape)

seq_len, batch_size, n_tokens, n_experts = 8, 6, 10, 4
data = torch.randint(0, n_tokens, (seq_len + 1, batch_size))
inputs, target = data[:-1], (data[:-1] + 1) % n_tokens
for drop_tokens, is_scale_prob in ((True, True), (False, False)):
    torch.manual_seed(11)
    model = Model(n_tokens, 16, seq_len, n_experts, drop_tokens, is_scale_prob)
    if drop_tokens:
        print(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_func = nn.CrossEntropyLoss()
    for step in range(10):
        output, counts, route_prob, n_dropped, route_prob_max = model(inputs)
        cross_entropy_loss = loss_func(output.view(-1, n_tokens), target.view(-1))
        total = counts.sum(dim=-1, keepdims=True)
        route_frac = counts / total
        route_prob = route_prob / total
        load_balancing_loss = n_experts * (route_frac * route_prob).sum()
        loss = cross_entropy_loss + 0.01 * load_balancing_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {cross_entropy_loss.item():.5f} lb_loss {load_balancing_loss.item():.5f} "
              f"dropped {(total.new_tensor(n_dropped) / total).item():.4f} "
              f"route min {route_frac.min().item():.4f} max {route_frac.max().item():.4f} "
              f"std {route_frac.std().item():.4f}")
    print(counts, counts.dtype, route_prob_max[:5])
    print(model.switch.experts[0].layer1.weight.grad.abs().sum(), model.gmlp.sgu.bias.grad)
