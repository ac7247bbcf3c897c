# Corpus program, written for gradsh (no code copied). Modelled on Liu Er's Bilibili course
# "PyTorch深度学习实践" lecture 9 (多分类问题 / Softmax Classifier), whose code is copied in many
# CSDN and Zhihu notes (e.g. https://bill-xing.com/2025/11/12/pytorch%E5%88%98%E4%BA%8C%E5%A4%A7%E4%BA%BA/6%E9%80%BB%E8%BE%91%E6%96%AF%E8%92%82%E5%9B%9E%E5%BD%92
# for the series): the NumPy softmax + cross-entropy of z = [0.2, 0.1, -0.1] with a one-hot y,
# the same with torch (y = LongTensor([0]), CrossEntropyLoss), the "Batch Loss1 / Batch Loss2"
# comparison of two prediction matrices for Y = LongTensor([2, 0, 1]), and the homework
# checking CrossEntropyLoss == LogSoftmax + NLLLoss.
# Differences: the homework's logits are seeded random ones; a short training of a
# Linear(4, 3) on synthetic data stands in for the MNIST network (no download).
import numpy as np
import torch

y = np.array([1, 0, 0])
z = np.array([0.2, 0.1, -0.1])
y_pred = np.exp(z) / np.exp(z).sum()
loss = (-y * np.log(y_pred)).sum()
print(loss)

y = torch.LongTensor([0])
z = torch.Tensor([[0.2, 0.1, -0.1]])
criterion = torch.nn.CrossEntropyLoss()
loss = criterion(z, y)
print(loss.item(), loss)

criterion = torch.nn.CrossEntropyLoss()
Y = torch.LongTensor([2, 0, 1])
Y_pred1 = torch.Tensor([[0.1, 0.2, 0.9],
                        [1.1, 0.1, 0.2],
                        [0.2, 2.1, 0.1]])
Y_pred2 = torch.Tensor([[0.8, 0.2, 0.5],
                        [0.2, 0.3, 0.5],
                        [0.2, 0.2, 0.5]])
l1 = criterion(Y_pred1, Y)
l2 = criterion(Y_pred2, Y)
print("Batch Loss1 = ", l1.data, "\nBatch Loss2=", l2.data)

# homework: CrossEntropyLoss <==> LogSoftmax + NLLLoss
torch.manual_seed(0)
logits = torch.randn(5, 4, requires_grad=True)
target = torch.tensor([1, 0, 3, 3, 2])
ce = torch.nn.CrossEntropyLoss()(logits, target)
log_sm = torch.nn.LogSoftmax(dim=1)(logits)
nll = torch.nn.NLLLoss()(log_sm, target)
print(ce, nll, torch.allclose(ce, nll))
print(log_sm)
print(torch.nn.functional.softmax(logits, dim=1).sum(dim=1))
ce.backward()
print(logits.grad)
for red in ("none", "sum", "mean"):
    print(red, torch.nn.CrossEntropyLoss(reduction=red)(logits.detach(), target))

# a small softmax classifier trained on synthetic 4-feature data
X = torch.randn(60, 4)
labels = (X[:, 0] > 0).long() + (X[:, 1] > 0.5).long()
model = torch.nn.Linear(4, 3)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
for epoch in range(20):
    optimizer.zero_grad()
    outputs = model(X)
    loss = criterion(outputs, labels)
    loss.backward()
    optimizer.step()
    if epoch % 5 == 4:
        _, predicted = torch.max(outputs.data, dim=1)
        correct = (predicted == labels).sum().item()
        print("[%d] loss: %.3f accuracy: %d %%" % (epoch + 1, loss.item(), 100 * correct / 60))
print(predicted)
print(criterion)
