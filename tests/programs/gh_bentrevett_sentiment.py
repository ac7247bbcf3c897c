# Corpus program, written for gradsh (no code copied). Modelled on bentrevett's
# pytorch-sentiment-analysis notebooks "2 - Recurrent Neural Networks" and "3 - Convolutional
# Neural Networks" (MIT):
# https://github.com/bentrevett/pytorch-sentiment-analysis/blob/main/2%20-%20Recurrent%20Neural%20Networks.ipynb
# https://github.com/bentrevett/pytorch-sentiment-analysis/blob/main/3%20-%20Convolutional%20Neural%20Networks.ipynb
# Like the originals: seeds for numpy and torch, a vocabulary with "<unk>"/"<pad>" specials and
# min_freq, examples as dicts of "ids"/"length"/"label" tensors, a collate_fn using
# nn.utils.rnn.pad_sequence(batch_first=True, padding_value=pad_index) and torch.stack, an
# LSTM classifier (Embedding(padding_idx) -> Dropout -> pack_padded_sequence(enforce_sorted=
# False) -> 2-layer bidirectional LSTM with dropout -> cat(hidden[-1], hidden[-2]) -> Linear),
# initialize_weights with xavier_normal_/zeros_ and orthogonal_ for the LSTM weights,
# count_parameters printed with '{:,}', get_accuracy, train/evaluate returning np.mean of the
# batch losses and accuracies, the CNN classifier (Conv1d per filter size over
# embedded.permute(0, 2, 1), relu, max over time, cat, dropout, Linear) with kaiming_normal_
# init, and predict_sentiment padding short inputs to min_length.
# Differences: our own code; a tiny generated review set and a whitespace tokenizer instead of
# IMDb, torchtext and GloVe (the embeddings stay random); small sizes; no tqdm.
import collections

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

seed = 1234
np.random.seed(seed)
torch.manual_seed(seed)

positive = "great wonderful loved superb moving brilliant fun charming".split()
negative = "terrible boring awful hated dull worst mess weak".split()
filler = "the film movie plot acting was and a story it this with very really".split()


def make_review(label):
    words = list(np.random.choice(filler, np.random.randint(4, 12)))
    pool = positive if label == 1 else negative
    for _ in range(np.random.randint(1, 3)):
        words.insert(np.random.randint(0, len(words) + 1), str(np.random.choice(pool)))
    return " ".join(words)


def tokenizer(text):
    return text.lower().split()


labels = np.random.randint(0, 2, 160)
texts = [make_review(int(l)) for l in labels]
min_freq = 2
special_tokens = ["<unk>", "<pad>"]
counter = collections.Counter(t for text in texts[:120] for t in tokenizer(text))
itos = special_tokens + sorted(w for w, c in counter.items() if c >= min_freq)
stoi = {w: i for i, w in enumerate(itos)}
unk_index, pad_index = stoi["<unk>"], stoi["<pad>"]
print(len(itos), itos[:6])


def numericalize(text):
    ids = [stoi.get(t, unk_index) for t in tokenizer(text)]
    return {"ids": torch.tensor(ids), "length": torch.tensor(len(ids)), "label": torch.tensor(int(labels_of[text]))}


labels_of = dict(zip(texts, labels))
data = [numericalize(t) for t in texts]
train_data, valid_data = data[:120], data[120:]
print(train_data[0])


def get_collate_fn(pad_index):
    def collate_fn(batch):
        batch_ids = [i["ids"] for i in batch]
        batch_ids = nn.utils.rnn.pad_sequence(batch_ids, padding_value=pad_index, batch_first=True)
        batch_length = torch.stack([i["length"] for i in batch])
        batch_label = torch.stack([i["label"] for i in batch])
        return {"ids": batch_ids, "length": batch_length, "label": batch_label}
    return collate_fn


def get_data_loader(dataset, batch_size, pad_index, shuffle=False):
    return torch.utils.data.DataLoader(dataset=dataset, batch_size=batch_size,
                                       collate_fn=get_collate_fn(pad_index), shuffle=shuffle)


train_data_loader = get_data_loader(train_data, 24, pad_index, shuffle=True)
valid_data_loader = get_data_loader(valid_data, 20, pad_index)


class LSTM(nn.Module):
    def __init__(self, vocab_size, embedding_dim, hidden_dim, output_dim, n_layers,
                 bidirectional, dropout_rate, pad_index):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=pad_index)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim, n_layers, bidirectional=bidirectional,
                            dropout=dropout_rate, batch_first=True)
        self.fc = nn.Linear(hidden_dim * 2 if bidirectional else hidden_dim, output_dim)
        self.dropout = nn.Dropout(dropout_rate)

    def forward(self, ids, length):
        embedded = self.dropout(self.embedding(ids))
        packed_embedded = nn.utils.rnn.pack_padded_sequence(embedded, length, batch_first=True,
                                                            enforce_sorted=False)
        packed_output, (hidden, cell) = self.lstm(packed_embedded)
        output, output_length = nn.utils.rnn.pad_packed_sequence(packed_output)
        if self.lstm.bidirectional:
            hidden = self.dropout(torch.cat([hidden[-1], hidden[-2]], dim=-1))
        else:
            hidden = self.dropout(hidden[-1])
        return self.fc(hidden)


class CNN(nn.Module):
    def __init__(self, vocab_size, embedding_dim, n_filters, filter_sizes, output_dim,
                 dropout_rate, pad_index):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=pad_index)
        self.convs = nn.ModuleList([nn.Conv1d(embedding_dim, n_filters, filter_size)
                                    for filter_size in filter_sizes])
        self.fc = nn.Linear(len(filter_sizes) * n_filters, output_dim)
        self.dropout = nn.Dropout(dropout_rate)

    def forward(self, ids):
        embedded = self.dropout(self.embedding(ids))
        embedded = embedded.permute(0, 2, 1)
        conved = [torch.relu(conv(embedded)) for conv in self.convs]
        pooled = [conv.max(dim=-1).values for conv in conved]
        cat = self.dropout(torch.cat(pooled, dim=-1))
        return self.fc(cat)


def count_parameters(model):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def initialize_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.xavier_normal_(m.weight)
        nn.init.zeros_(m.bias)
    elif isinstance(m, nn.Conv1d):
        nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
        nn.init.zeros_(m.bias)
    elif isinstance(m, nn.LSTM):
        for name, param in m.named_parameters():
            if "bias" in name:
                nn.init.zeros_(param)
            elif "weight" in name:
                nn.init.orthogonal_(param)


def get_accuracy(prediction, label):
    batch_size, _ = prediction.shape
    predicted_classes = prediction.argmax(dim=-1)
    correct_predictions = predicted_classes.eq(label).sum()
    return correct_predictions / batch_size


def run(dataloader, model, criterion, optimizer, use_length):
    training = optimizer is not None
    model.train(training)
    epoch_losses, epoch_accs = [], []
    with torch.set_grad_enabled(training):
        for batch in dataloader:
            ids, length, label = batch["ids"], batch["length"], batch["label"]
            prediction = model(ids, length) if use_length else model(ids)
            loss = criterion(prediction, label)
            accuracy = get_accuracy(prediction, label)
            if training:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            epoch_losses.append(loss.item())
            epoch_accs.append(accuracy.item())
    return np.mean(epoch_losses), np.mean(epoch_accs)


def fit(model, use_length, n_epochs=4):
    print(model)
    print(f"The model has {count_parameters(model):,} trainable parameters")
    model.apply(initialize_weights)
    optimizer = optim.Adam(model.parameters(), lr=5e-3)
    criterion = nn.CrossEntropyLoss()
    best_valid_loss = float("inf")
    for epoch in range(n_epochs):
        train_loss, train_acc = run(train_data_loader, model, criterion, optimizer, use_length)
        valid_loss, valid_acc = run(valid_data_loader, model, criterion, None, use_length)
        if valid_loss < best_valid_loss:
            best_valid_loss = valid_loss
        print(f"epoch: {epoch}")
        print(f"train_loss: {train_loss:.3f}, train_acc: {train_acc:.3f}")
        print(f"valid_loss: {valid_loss:.3f}, valid_acc: {valid_acc:.3f}")
    return best_valid_loss


vocab_size = len(itos)
lstm = LSTM(vocab_size, 16, 16, 2, 2, True, 0.5, pad_index)
fit(lstm, True)
cnn = CNN(vocab_size, 16, 8, [2, 3, 4], 2, 0.25, pad_index)
fit(cnn, False)


def predict_sentiment(text, model, min_length=4):
    ids = [stoi.get(t, unk_index) for t in tokenizer(text)]
    if len(ids) < min_length:
        ids += [pad_index] * (min_length - len(ids))
    tensor = torch.LongTensor(ids).unsqueeze(dim=0)
    prediction = model(tensor).squeeze(dim=0)
    probability = torch.softmax(prediction, dim=-1)
    predicted_class = prediction.argmax(dim=-1).item()
    predicted_probability = probability[predicted_class].item()
    return predicted_class, round(predicted_probability, 4)


cnn.eval()
with torch.no_grad():
    for text in ["This film is terrible!", "This film is great!", "a brilliant story", "dull"]:
        print(text, predict_sentiment(text, cnn))
print(lstm.embedding.weight[pad_index].abs().sum(), lstm.embedding.weight.grad[pad_index].abs().sum())
