# Corpus program, written for gradsh (no code copied). Modelled on MorvanZhou's PyTorch-Tutorial
# 304_save_reload.py (MIT):
# https://github.com/MorvanZhou/PyTorch-Tutorial/blob/master/tutorial-contents/304_save_reload.py
# Like the original: a Sequential(Linear(1, 10), ReLU, Linear(10, 1)) trained with SGD(lr=0.5)
# on y = x^2 + noise, then saved twice (torch.save(net1, ...) the entire net and
# torch.save(net1.state_dict(), ...) its parameters); restore_net() loads the entire net and
# restore_params() builds a new Sequential and load_state_dict()s the parameters; the three
# predictions compared.
# Differences: our own code; a seed; buffers (io.BytesIO) instead of files; the original was
# written for torch 0.4, where torch.load of a whole net just worked: under torch >= 2.6
# weights_only defaults to True, so the program prints the error's type and first line and
# then loads with weights_only=False as the error message suggests.
import io

import torch

torch.manual_seed(1)
x = torch.unsqueeze(torch.linspace(-1, 1, 100), dim=1)
y = x.pow(2) + 0.2 * torch.rand(x.size())

whole, params = io.BytesIO(), io.BytesIO()


def save():
    net1 = torch.nn.Sequential(torch.nn.Linear(1, 10), torch.nn.ReLU(), torch.nn.Linear(10, 1))
    optimizer = torch.optim.SGD(net1.parameters(), lr=0.5)
    loss_func = torch.nn.MSELoss()
    for t in range(100):
        prediction = net1(x)
        loss = loss_func(prediction, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print('final loss', loss.item())
    torch.save(net1, whole)
    torch.save(net1.state_dict(), params)
    return net1(x)


def restore_net():
    whole.seek(0)
    try:
        net2 = torch.load(whole)
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0][:60])
        whole.seek(0)
        net2 = torch.load(whole, weights_only=False)
    print(net2)
    return net2(x)


def restore_params():
    net3 = torch.nn.Sequential(torch.nn.Linear(1, 10), torch.nn.ReLU(), torch.nn.Linear(10, 1))
    params.seek(0)
    state = torch.load(params)
    print(list(state.keys()))
    print(net3.load_state_dict(state))
    return net3(x)


p1 = save()
p2 = restore_net()
p3 = restore_params()
print(torch.equal(p1, p2), torch.equal(p1, p3))
print(p3[:4])
