# Corpus program, written for gradsh (no code copied). Modelled on Machine Learning Mastery's
# "Using Learning Rate Schedule in PyTorch Training" (Adrian Tam, 2023):
# https://machinelearningmastery.com/using-learning-rate-schedule-in-pytorch-training/
# Like the post: the sonar-style binary classifier (Linear(60, 60) -> ReLU -> Linear(60, 1)
# -> Sigmoid) trained with SGD and BCELoss in mini-batches; a LinearLR(start_factor=1.0,
# end_factor=0.3, total_iters=10) then an ExponentialLR(gamma=0.99) schedule stepped once per
# epoch, printing "Epoch %d: SGD lr %.4f -> %.4f" from optimizer.param_groups[0]["lr"]; the
# final accuracy; the post's other options (StepLR, MultiStepLR, LambdaLR, and
# ReduceLROnPlateau on the epoch loss) compared, and a custom schedule.
# Differences: synthetic 60-feature data (208 seeded samples, labels from a random
# hyperplane) instead of the sonar CSV; 12 epochs of batch 24; CyclicLR,
# CosineAnnealingWarmRestarts and OneCycleLR added to the comparison; the scheduler's
# state_dict and get_last_lr printed.
import torch
import torch.nn as nn
import torch.optim as optim
import torch.optim.lr_scheduler as lr_scheduler

torch.manual_seed(7)
X = torch.randn(208, 60)
w_true = torch.randn(60)
y = ((X @ w_true + 0.3 * torch.randn(208)) > 0).float().reshape(-1, 1)
X_train, y_train, X_test, y_test = X[:160], y[:160], X[160:], y[160:]


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(60, 60), nn.ReLU(), nn.Linear(60, 1), nn.Sigmoid())


def train(model, optimizer, scheduler, n_epochs=12, batch_size=24, verbose=False, plateau=False):
    loss_fn = nn.BCELoss()
    lrs = []
    for epoch in range(n_epochs):
        model.train()
        epoch_loss = 0.0
        for start in range(0, len(X_train), batch_size):
            Xbatch = X_train[start:start + batch_size]
            ybatch = y_train[start:start + batch_size]
            y_pred = model(Xbatch)
            loss = loss_fn(y_pred, ybatch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        before_lr = optimizer.param_groups[0]["lr"]
        if plateau:
            scheduler.step(epoch_loss)
        else:
            scheduler.step()
        after_lr = optimizer.param_groups[0]["lr"]
        lrs.append(after_lr)
        if verbose:
            print("Epoch %d: SGD lr %.4f -> %.4f" % (epoch, before_lr, after_lr))
    model.eval()
    with torch.no_grad():
        acc = (model(X_test).round() == y_test).float().mean()
    return float(acc), lrs


model = make_model()
optimizer = optim.SGD(model.parameters(), lr=0.1)
scheduler = lr_scheduler.LinearLR(optimizer, start_factor=1.0, end_factor=0.3, total_iters=10)
acc, _ = train(model, optimizer, scheduler, verbose=True)
print("Model accuracy: %.2f%%" % (acc * 100))
print(scheduler.state_dict())

model = make_model()
optimizer = optim.SGD(model.parameters(), lr=0.1)
scheduler = lr_scheduler.ExponentialLR(optimizer, gamma=0.99)
acc, lrs = train(model, optimizer, scheduler)
print("ExponentialLR accuracy: %.2f%%" % (acc * 100), [round(v, 6) for v in lrs[:4]], scheduler.get_last_lr())

makers = {
    "StepLR": lambda o: lr_scheduler.StepLR(o, step_size=4, gamma=0.5),
    "MultiStepLR": lambda o: lr_scheduler.MultiStepLR(o, milestones=[3, 7, 9], gamma=0.3),
    "LambdaLR": lambda o: lr_scheduler.LambdaLR(o, lambda epoch: 0.95 ** epoch / (1 + epoch % 3)),
    "CyclicLR": lambda o: lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3,
                                                mode="triangular2"),
    "WarmRestarts": lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2,
                                                                       eta_min=0.001),
    "OneCycleLR": lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.2, total_steps=12),
}
for name, make in makers.items():
    model = make_model()
    optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scheduler = make(optimizer)
    acc, lrs = train(model, optimizer, scheduler)
    print(f"{name:13s} acc {acc * 100:.2f}% lrs {[round(v, 5) for v in lrs]}")
    if name in ("CyclicLR", "OneCycleLR"):
        print("   momentum now", round(optimizer.param_groups[0]["momentum"], 5))

model = make_model()
optimizer = optim.SGD(model.parameters(), lr=0.1)
scheduler = lr_scheduler.ReduceLROnPlateau(optimizer, mode="min", factor=0.5, patience=1,
                                           threshold=0.05)
acc, lrs = train(model, optimizer, scheduler, plateau=True)
print("ReduceLROnPlateau", f"{acc * 100:.2f}%", lrs, scheduler.num_bad_epochs, scheduler.best)
