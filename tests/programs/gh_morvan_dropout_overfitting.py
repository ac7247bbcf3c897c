# Corpus program, written for gradsh (no code copied). Modelled on MorvanZhou's
# PyTorch-Tutorial "503_dropout.py" (an over-fitting net and the same net with Dropout(0.5),
# fitted to 20 noisy points of a line; both evaluated in eval() mode every 10 steps):
# https://github.com/MorvanZhou/PyTorch-Tutorial/blob/master/tutorial-contents/503_dropout.py
# Like the original: x = unsqueeze(linspace(-1, 1, 20), 1), targets x + 0.3 * torch.normal(
# zeros, ones); Sequential(Linear(1, 300), [Dropout(0.5)], ReLU, Linear(300, 300), [Dropout(0.5)],
# ReLU, Linear(300, 1)); Adam(lr=0.01), MSELoss; the test losses printed with '%.4f' under
# eval(), then train() again. (Linear(1, 300) is a rank-1 product: its output's layout decides
# the order in which the dropout mask is drawn.)
# Differences: seeded; 100 steps instead of 500; the plots replaced by printed losses.
import torch

torch.manual_seed(1)

N_SAMPLES = 20
N_HIDDEN = 300

x = torch.unsqueeze(torch.linspace(-1, 1, N_SAMPLES), 1)
y = x + 0.3 * torch.normal(torch.zeros(N_SAMPLES, 1), torch.ones(N_SAMPLES, 1))
test_x = torch.unsqueeze(torch.linspace(-1, 1, N_SAMPLES), 1)
test_y = test_x + 0.3 * torch.normal(torch.zeros(N_SAMPLES, 1), torch.ones(N_SAMPLES, 1))


def make_net(p=None):
    layers = [torch.nn.Linear(1, N_HIDDEN)]
    if p is not None:
        layers.append(torch.nn.Dropout(p))
    layers += [torch.nn.ReLU(), torch.nn.Linear(N_HIDDEN, N_HIDDEN)]
    if p is not None:
        layers.append(torch.nn.Dropout(p))
    layers += [torch.nn.ReLU(), torch.nn.Linear(N_HIDDEN, 1)]
    return torch.nn.Sequential(*layers)


net_overfitting = make_net()
net_dropped = make_net(0.5)
print(net_dropped)

hidden = net_dropped[0](x)
print("first layer output:", tuple(hidden.shape), hidden.stride(), hidden.is_contiguous())

opt_ofit = torch.optim.Adam(net_overfitting.parameters(), lr=0.01)
opt_drop = torch.optim.Adam(net_dropped.parameters(), lr=0.01)
loss_func = torch.nn.MSELoss()

for t in range(100):
    pred_ofit = net_overfitting(x)
    pred_drop = net_dropped(x)
    loss_ofit = loss_func(pred_ofit, y)
    loss_drop = loss_func(pred_drop, y)
    opt_ofit.zero_grad()
    opt_drop.zero_grad()
    loss_ofit.backward()
    loss_drop.backward()
    opt_ofit.step()
    opt_drop.step()

    if t % 10 == 0:
        net_overfitting.eval()
        net_dropped.eval()  # dropout off for the test
        test_ofit = loss_func(net_overfitting(test_x), test_y)
        test_drop = loss_func(net_dropped(test_x), test_y)
        print('step %3d  overfitting loss=%.4f  dropout loss=%.4f'
              % (t, test_ofit.data.numpy(), test_drop.data.numpy()))
        net_overfitting.train()
        net_dropped.train()

print("train losses:", round(loss_ofit.item(), 5), round(loss_drop.item(), 5))
