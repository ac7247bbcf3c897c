# Corpus program, written for gradsh (no code copied). Modelled on Liu Er's Bilibili course
# "PyTorch深度学习实践" lecture 13 (循环神经网络 高级篇, the name -> country classifier), copied
# in many CSDN and Zhihu notes (see https://bill-xing.com/2025/11/12/pytorch%E5%88%98%E4%BA%8C%E5%A4%A7%E4%BA%BA/6%E9%80%BB%E8%BE%91%E6%96%AF%E8%92%82%E5%9B%9E%E5%BD%92
# for the series): name2list with ord(), make_tensors (zero padding, lengths, sort by length
# descending with perm_idx), the RNNClassifier (Embedding, bidirectional GRU over
# pack_padded_sequence, the last forward and backward hidden states concatenated with
# torch.cat([hidden[-1], hidden[-2]], dim=1), Linear), trainModel printing
# '[time] Epoch i [n/N] loss=' and testModel printing 'Test set: Accuracy ...', and
# country_list / idx2country.
# Differences: a made-up list of 24 names of 4 "countries" instead of the course's CSV files;
# two epochs; the elapsed-time prefix is left out (it changes from run to run); seeded.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence

torch.manual_seed(0)
HIDDEN_SIZE = 16
BATCH_SIZE = 8
N_LAYER = 2
N_CHARS = 128

data = [("Zhang", "Chinese"), ("Wang", "Chinese"), ("Li", "Chinese"), ("Zhao", "Chinese"),
        ("Chen", "Chinese"), ("Liu", "Chinese"), ("Smith", "English"), ("Johnson", "English"),
        ("Williams", "English"), ("Brown", "English"), ("Taylor", "English"),
        ("Thompson", "English"), ("Mueller", "German"), ("Schmidt", "German"),
        ("Schneider", "German"), ("Fischer", "German"), ("Weber", "German"),
        ("Hoffmann", "German"), ("Tanaka", "Japanese"), ("Suzuki", "Japanese"),
        ("Takahashi", "Japanese"), ("Watanabe", "Japanese"), ("Ito", "Japanese"),
        ("Yamamoto", "Japanese")]
country_list = sorted(set(c for _, c in data))
country_dict = {c: i for i, c in enumerate(country_list)}
print(country_list, country_dict)


def idx2country(index):
    return country_list[index]


def name2list(name):
    arr = [ord(c) for c in name]
    return arr, len(arr)


def make_tensors(names, countries):
    sequences_and_lengths = [name2list(name) for name in names]
    name_sequences = [sl[0] for sl in sequences_and_lengths]
    seq_lengths = torch.LongTensor([sl[1] for sl in sequences_and_lengths])
    countries = countries.long()
    seq_tensor = torch.zeros(len(name_sequences), seq_lengths.max()).long()
    for idx, (seq, seq_len) in enumerate(zip(name_sequences, seq_lengths), 0):
        seq_tensor[idx, :seq_len] = torch.LongTensor(seq)
    seq_lengths, perm_idx = seq_lengths.sort(dim=0, descending=True)
    seq_tensor = seq_tensor[perm_idx]
    countries = countries[perm_idx]
    return seq_tensor, seq_lengths, countries


class RNNClassifier(nn.Module):
    def __init__(self, input_size, hidden_size, output_size, n_layers=1, bidirectional=True):
        super(RNNClassifier, self).__init__()
        self.hidden_size = hidden_size
        self.n_layers = n_layers
        self.n_directions = 2 if bidirectional else 1
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, n_layers, bidirectional=bidirectional)
        self.fc = nn.Linear(hidden_size * self.n_directions, output_size)

    def _init_hidden(self, batch_size):
        return torch.zeros(self.n_layers * self.n_directions, batch_size, self.hidden_size)

    def forward(self, input, seq_lengths):
        input = input.t()
        batch_size = input.size(1)
        hidden = self._init_hidden(batch_size)
        embedding = self.embedding(input)
        gru_input = pack_padded_sequence(embedding, seq_lengths)
        output, hidden = self.gru(gru_input, hidden)
        if self.n_directions == 2:
            hidden_cat = torch.cat([hidden[-1], hidden[-2]], dim=1)
        else:
            hidden_cat = hidden[-1]
        return self.fc(hidden_cat)


names = [n for n, _ in data]
labels = torch.tensor([country_dict[c] for _, c in data])
perm = torch.randperm(len(data))
batches = [([names[i] for i in perm[k:k + BATCH_SIZE].tolist()], labels[perm[k:k + BATCH_SIZE]])
           for k in range(0, len(data), BATCH_SIZE)]
inputs, seq_lengths, target = make_tensors(*batches[0])
print(inputs[:3], seq_lengths, target)

classifier = RNNClassifier(N_CHARS, HIDDEN_SIZE, len(country_list), N_LAYER)
print(classifier)
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(classifier.parameters(), lr=0.01)


def trainModel(epoch):
    total_loss = 0
    for i, (names_b, countries) in enumerate(batches, 1):
        inputs, seq_lengths, target = make_tensors(names_b, countries)
        output = classifier(inputs, seq_lengths)
        loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
        print(f'Epoch {epoch} ', end='')
        print(f'[{i * len(inputs)}/{len(data)}] ', end='')
        print(f'loss={total_loss / (i * len(inputs))}')
    return total_loss


def testModel():
    correct = 0
    total = len(data)
    print("evaluating trained model ...")
    with torch.no_grad():
        for names_b, countries in batches:
            inputs, seq_lengths, target = make_tensors(names_b, countries)
            output = classifier(inputs, seq_lengths)
            pred = output.max(dim=1, keepdim=True)[1]
            correct += pred.eq(target.view_as(pred)).sum().item()
    percent = '%.2f' % (100 * correct / total)
    print(f'Test set: Accuracy {correct}/{total} {percent}%')
    return correct / total


acc_list = []
for epoch in range(1, 3):
    trainModel(epoch)
    acc_list.append(testModel())
print(acc_list)
with torch.no_grad():
    inputs, seq_lengths, _ = make_tensors(["Sato", "Meyer"], torch.tensor([0, 0]))
    out = classifier(inputs, seq_lengths)
    print(out, [idx2country(i) for i in out.argmax(1).tolist()])
try:
    make_tensors(["Li", "Takahashi"], torch.tensor([0, 1]))
    classifier(torch.tensor([[76, 105, 0], [84, 97, 107]]), torch.tensor([2, 3]))
except RuntimeError as e:
    print("RuntimeError:", e)
