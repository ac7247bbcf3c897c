# Corpus program, written for gradsh (no code copied). Modelled on Simon Prince's
# "Understanding Deep Learning" notebook 20.3 "Lottery Tickets":
# https://github.com/udlbook/udlbook/blob/main/Notebooks/Chap20/20_3_Lottery_Tickets.ipynb
# Like the notebook: SparseLinear wraps nn.Linear and keeps a mask over the concatenation of
# its flattened parameters; apply_mask writes mask * vec back by slicing the vector
# (param_len = np.cumprod(param.shape)[-1]) and assigning param.data = new_param.data;
# SparseMLP (three SparseLinear layers, a residual middle layer) with get/set of layer
# masks and vectors; get_mask (the notebook's exercise, answered) zeroes the lowest
# percent_sparse of the absolute weights; find_lottery_ticket rewinds to the initial
# parameters, applies the new masks, retrains, and prints the notebook's
# "retrain #{}, sparsity {:.2f}, final_train_loss {:.3e}, max_acc ..." line, keeping
# copy.deepcopy of each model; stats stacked with np.stack.
# Differences: synthetic 40-dimensional 10-class data instead of MNIST-1D; mnist1d's
# train_model replaced by a small full-batch Adam loop with the same outputs (train losses,
# test accuracies); 6 sparsity levels from np.linspace(0, 0.9, 6) and 60 steps each;
# hidden size 64; seeds.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
import copy

torch.manual_seed(0)
np.random.seed(0)

centers = torch.randn(10, 40)
y_all = torch.randint(0, 10, (500,))
x_all = centers[y_all] + 0.8 * torch.randn(500, 40)
data = {'x': x_all[:400], 'y': y_all[:400], 'x_test': x_all[400:], 'y_test': y_all[400:]}


class SparseLinear(torch.nn.Module):
    def __init__(self, x_size, y_size):
        super(SparseLinear, self).__init__()
        self.linear = torch.nn.Linear(x_size, y_size)
        param_vec = torch.cat([p.flatten() for p in self.parameters()])
        self.mask = torch.ones_like(param_vec)

    def forward(self, x, apply_mask=True):
        if apply_mask:
            self.apply_mask()
        return self.linear(x)

    def update_mask(self, new_mask):
        self.mask = new_mask
        self.apply_mask()

    def apply_mask(self):
        self.vec2param(self.param2vec())

    def param2vec(self):
        vec = torch.cat([p.flatten() for p in self.parameters()])
        return self.mask * vec

    def vec2param(self, vec):
        pointer = 0
        for param in self.parameters():
            param_len = np.cumprod(param.shape)[-1]
            new_param = vec[pointer:pointer + param_len].reshape(param.shape)
            param.data = new_param.data
            pointer += param_len


class SparseMLP(torch.nn.Module):
    def __init__(self, input_size, output_size, hidden_size=100):
        super(SparseMLP, self).__init__()
        self.linear1 = SparseLinear(input_size, hidden_size)
        self.linear2 = SparseLinear(hidden_size, hidden_size)
        self.linear3 = SparseLinear(hidden_size, output_size)
        self.layers = [self.linear1, self.linear2, self.linear3]

    def forward(self, x):
        h = torch.relu(self.linear1(x))
        h = h + torch.relu(self.linear2(h))
        h = self.linear3(h)
        return h

    def get_layer_masks(self):
        return [l.mask for l in self.layers]

    def set_layer_masks(self, new_masks):
        for i, l in enumerate(self.layers):
            l.update_mask(new_masks[i])

    def get_layer_vecs(self):
        return [l.param2vec() for l in self.layers]

    def set_layer_vecs(self, vecs):
        for i, l in enumerate(self.layers):
            l.vec2param(vecs[i])


def get_mask(absolute_weights, percent_sparse):
    mask = torch.ones_like(absolute_weights)
    n_zero = int(percent_sparse * absolute_weights.numel())
    if n_zero > 0:
        order = torch.argsort(absolute_weights)
        mask[order[:n_zero]] = 0
    return mask


print(get_mask(torch.tensor([5., 6, 0, 1, 7]), 0.4))


def train_model(dataset, model, args):
    optimizer = optim.Adam(model.parameters(), lr=args['learning_rate'])
    results = {'train_losses': [], 'test_losses': [], 'train_acc': [], 'test_acc': [],
               'checkpoints': []}
    for step in range(args['total_steps']):
        loss = F.cross_entropy(model(dataset['x']), dataset['y'])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % args['eval_every'] == 0 or step == args['total_steps'] - 1:
            with torch.no_grad():
                logits = model(dataset['x_test'])
                test_loss = F.cross_entropy(logits, dataset['y_test']).item()
                acc = 100 * (logits.argmax(-1) == dataset['y_test']).float().mean().item()
            results['train_losses'].append(loss.item())
            results['test_losses'].append(test_loss)
            results['test_acc'].append(acc)
            results['train_acc'].append(0.0)
    results['checkpoints'].append(model)
    return results


def find_lottery_ticket(model, dataset, args, sparsity_schedule, criteria_fn=None, **kwargs):
    criteria_fn = lambda init_params, final_params: final_params.abs()
    init_params = model.get_layer_vecs()
    stats = {'train_losses': [], 'test_losses': [], 'train_accs': [], 'test_accs': []}
    models = []
    for i, percent_sparse in enumerate(sparsity_schedule):
        final_params = model.get_layer_vecs()
        scores = [criteria_fn(ip, fp) for ip, fp in zip(init_params, final_params)]
        masks = [get_mask(s, percent_sparse) for s in scores]
        model.set_layer_vecs(init_params)
        model.set_layer_masks(masks)
        results = train_model(dataset, model, args)
        model = results['checkpoints'][-1]
        stats['train_losses'].append(results['train_losses'])
        stats['test_losses'].append(results['test_losses'])
        stats['train_accs'].append(results['train_acc'])
        stats['test_accs'].append(results['test_acc'])
        if (i + 1) % 1 == 0:
            print('\tretrain #{}, sparsity {:.2f}, final_train_loss {:.3e}, max_acc {:.1f}, last_acc {:.1f}, mean_acc {:.1f}'
                  .format(i + 1, percent_sparse, results['train_losses'][-1], np.max(results['test_acc']),
                          results['test_acc'][-1], np.mean(results['test_acc'])))
            models.append(copy.deepcopy(model))
        print('\t  zeros per layer:', [int((m == 0).sum()) for m in model.get_layer_masks()],
              [int((l.linear.weight == 0).sum()) for l in model.layers])
    stats = {k: np.stack(v) for k, v in stats.items()}
    return models, stats


model_args = {'total_steps': 60, 'eval_every': 20, 'learning_rate': 2e-2}
sparsity_schedule = np.linspace(0, 0.9, 6)
print("Magnitude pruning")
model = SparseMLP(40, 10, hidden_size=64)
lott_models, lott_stats = find_lottery_ticket(model, data, model_args, sparsity_schedule)
test_losses = lott_stats['test_losses'][:, -1]
test_accs = lott_stats['test_accs'][:, -1]
print(np.round(test_losses, 4))
print(test_accs)
print(lott_stats['train_losses'].shape, len(lott_models))
print(lott_models[3].linear2.linear.weight[:2, :6])
