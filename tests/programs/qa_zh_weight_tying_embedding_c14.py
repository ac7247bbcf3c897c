# Corpus program modelled on a Chinese blog Q&A post on weight tying (hqwc.cn, "embedding and
# output layer weights bound together"): nn.Embedding(10, 3) and nn.Linear(3, 10) have the same
# weight shape, and self.embedding.weight = self.head.weight makes them one Parameter that
# Adam updates once; a model without the tie is trained next to it on one-hot targets:
# http://hqwc.cn/news/600916.html
# Changed: 2000 steps -> 60, the losses printed every 20 steps instead of plotted with
# matplotlib; seeds for both models' initialisation. Written for gradsh.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model_1(nn.Module):
    def __init__(self):
        super(Model_1, self).__init__()
        self.embedding = nn.Embedding(10, 3)
        self.head = nn.Linear(3, 10)

    def forward(self, x):
        output = self.embedding(x)
        output = self.head(output)
        return F.softmax(output, dim=-1)


class Model_2(nn.Module):
    def __init__(self):
        super(Model_2, self).__init__()
        self.embedding = nn.Embedding(10, 3)
        self.head = nn.Linear(3, 10)
        # with this line the two weights are updated together
        self.embedding.weight = self.head.weight

    def forward(self, x):
        output = self.embedding(x)
        output = self.head(output)
        return F.softmax(output, dim=-1)


torch.manual_seed(1)
model_1 = Model_1()
model_2 = Model_2()
print(model_2)
print(len(list(model_1.parameters())), len(list(model_2.parameters())))
print(list(model_2.state_dict().keys()))

torch.manual_seed(0)
input_indexes = torch.randint(0, 10, (2, 3))
target = torch.zeros(2, 3, 10)
for i in range(2):
    for j in range(3):
        target[i, j, input_indexes[i, j]] = 1
print(target)

criterion = nn.MSELoss()
optimizer_1 = torch.optim.Adam(model_1.parameters(), lr=0.001)
optimizer_2 = torch.optim.Adam(model_2.parameters(), lr=0.001)
loss_tying = []
loss_no_tying = []
for step in range(60):
    output_1 = model_1(input_indexes)
    loss = criterion(output_1, target)
    optimizer_1.zero_grad()
    loss.backward()
    optimizer_1.step()
    loss_no_tying.append(loss.item())

    output_2 = model_2(input_indexes)
    loss = criterion(output_2, target)
    optimizer_2.zero_grad()
    loss.backward()
    optimizer_2.step()
    loss_tying.append(loss.item())
    if step % 20 == 0:
        print(step, loss_no_tying[-1], loss_tying[-1])

print(model_1.embedding.weight == model_1.head.weight)
print(model_2.embedding.weight == model_2.head.weight)
print(model_2.head.weight.grad)
