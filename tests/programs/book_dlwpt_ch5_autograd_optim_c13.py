# Corpus program, written for gradsh (no code copied). Modelled on "Deep Learning with PyTorch"
# chapter 5 notebooks (Apache-2.0):
# https://github.com/deep-learning-with-pytorch/dlwpt-code/blob/master/p1ch5/2_autograd.ipynb
# https://github.com/deep-learning-with-pytorch/dlwpt-code/blob/master/p1ch5/3_optimizers.ipynb
# Like the originals: the thermometer data, model(t_u, w, b) called as model(t_u, *params) on a
# two-element params tensor, params.grad is None before backward, gradient accumulation over
# two backward calls and grad.zero_(), the hand-written loop updating params in place under
# torch.no_grad() ('Epoch %d, Loss %f' with float(loss)); dir(optim)'s public names; one SGD
# step at lr 1e-5 and 1e-2 (params printed in scientific notation), SGD and Adam training
# loops; the randperm train / validation split, the loop printing the first epochs and every
# 500th, the validation under torch.no_grad() asserting val_loss.requires_grad == False, and
# calc_forward with torch.set_grad_enabled(is_train).
# Differences: epochs reduced (2000 / 1500 / 1000 / 1500 instead of 5000 / 5000 / 2000 /
# 3000); torch.manual_seed added for the split.
import torch
import torch.optim as optim

torch.set_printoptions(edgeitems=2, linewidth=75)
torch.manual_seed(0)
t_c = torch.tensor([0.5, 14.0, 15.0, 28.0, 11.0, 8.0, 3.0, -4.0, 6.0, 13.0, 21.0])
t_u = torch.tensor([35.7, 55.9, 58.2, 81.9, 56.3, 48.9, 33.9, 21.8, 48.4, 60.4, 68.4])
t_un = 0.1 * t_u


def model(t_u, w, b):
    return w * t_u + b


def loss_fn(t_p, t_c):
    squared_diffs = (t_p - t_c)**2
    return squared_diffs.mean()


params = torch.tensor([1.0, 0.0], requires_grad=True)
print(params.grad is None)
w, b = params
print(w, b)
loss = loss_fn(model(t_u, *params), t_c)
loss.backward()
print(params.grad)
loss = loss_fn(model(t_u, *params), t_c)
loss.backward()
print(params.grad)
if params.grad is not None:
    params.grad.zero_()
print(params.grad)


def training_loop(n_epochs, learning_rate, params, t_u, t_c):
    for epoch in range(1, n_epochs + 1):
        if params.grad is not None:
            params.grad.zero_()
        t_p = model(t_u, *params)
        loss = loss_fn(t_p, t_c)
        loss.backward()
        with torch.no_grad():
            params -= learning_rate * params.grad
        if epoch % 500 == 0:
            print('Epoch %d, Loss %f' % (epoch, float(loss)))
    return params


print(training_loop(n_epochs=2000, learning_rate=1e-2,
                    params=torch.tensor([1.0, 0.0], requires_grad=True), t_u=t_un, t_c=t_c))

print([name for name in dir(optim) if not name.startswith('_')][:14])
params = torch.tensor([1.0, 0.0], requires_grad=True)
optimizer = optim.SGD([params], lr=1e-5)
t_p = model(t_u, *params)
loss = loss_fn(t_p, t_c)
loss.backward()
optimizer.step()
print(params)
params = torch.tensor([1.0, 0.0], requires_grad=True)
optimizer = optim.SGD([params], lr=1e-2)
t_p = model(t_un, *params)
loss = loss_fn(t_p, t_c)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(params)


def training_loop2(n_epochs, optimizer, params, t_u, t_c):
    for epoch in range(1, n_epochs + 1):
        t_p = model(t_u, *params)
        loss = loss_fn(t_p, t_c)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if epoch % 500 == 0:
            print('Epoch %d, Loss %f' % (epoch, float(loss)))
    return params


params = torch.tensor([1.0, 0.0], requires_grad=True)
optimizer = optim.SGD([params], lr=1e-2)
print(training_loop2(n_epochs=1500, optimizer=optimizer, params=params, t_u=t_un, t_c=t_c))
params = torch.tensor([1.0, 0.0], requires_grad=True)
optimizer = optim.Adam([params], lr=1e-1)
print(training_loop2(n_epochs=1000, optimizer=optimizer, params=params, t_u=t_u, t_c=t_c))
print(optimizer.state_dict()['state'][0]['step'], optimizer.state_dict()['param_groups'])

n_samples = t_u.shape[0]
n_val = int(0.2 * n_samples)
shuffled_indices = torch.randperm(n_samples)
train_indices = shuffled_indices[:-n_val]
val_indices = shuffled_indices[-n_val:]
print(train_indices, val_indices)
train_t_u = t_u[train_indices]
train_t_c = t_c[train_indices]
val_t_u = t_u[val_indices]
val_t_c = t_c[val_indices]
train_t_un = 0.1 * train_t_u
val_t_un = 0.1 * val_t_u


def training_loop3(n_epochs, optimizer, params, train_t_u, val_t_u, train_t_c, val_t_c):
    for epoch in range(1, n_epochs + 1):
        train_t_p = model(train_t_u, *params)
        train_loss = loss_fn(train_t_p, train_t_c)
        with torch.no_grad():
            val_t_p = model(val_t_u, *params)
            val_loss = loss_fn(val_t_p, val_t_c)
            assert val_loss.requires_grad == False  # noqa: E712
        optimizer.zero_grad()
        train_loss.backward()
        optimizer.step()
        if epoch <= 3 or epoch % 500 == 0:
            print(f"Epoch {epoch}, Training loss {train_loss.item():.4f},"
                  f" Validation loss {val_loss.item():.4f}")
    return params


params = torch.tensor([1.0, 0.0], requires_grad=True)
optimizer = optim.SGD([params], lr=1e-2)
print(training_loop3(n_epochs=1500, optimizer=optimizer, params=params, train_t_u=train_t_un,
                     val_t_u=val_t_un, train_t_c=train_t_c, val_t_c=val_t_c))


def calc_forward(t_u, t_c, is_train):
    with torch.set_grad_enabled(is_train):
        t_p = model(t_u, *params)
        loss = loss_fn(t_p, t_c)
    return loss


print(calc_forward(train_t_un, train_t_c, True), calc_forward(val_t_un, val_t_c, False))
print(torch.is_grad_enabled())
