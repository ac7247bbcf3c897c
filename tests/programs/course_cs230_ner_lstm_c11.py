# Corpus program, written for gradsh (no code copied). Modelled on Stanford CS230's code
# examples, pytorch/nlp (named-entity tagging): model/net.py (Embedding -> LSTM(batch_first)
# -> contiguous().view(-1, hidden) -> Linear -> log_softmax, loss_fn masking the padding
# labels of -1 with labels % num_tags and fancy indexing outputs[range(n), labels], the NumPy
# accuracy metric), model/data_loader.py's data_iterator (random.seed(230) shuffle, batches
# padded with pad_ind / -1 in NumPy then torch.LongTensor), utils.RunningAverage and train.py's
# train / evaluate loops (summaries every save_summary_steps, metrics averaged with np.mean,
# the "- Train metrics: accuracy: ...; loss: ..." log line):
# https://github.com/cs230-stanford/cs230-code-examples/tree/master/pytorch/nlp
# Differences: 40 synthetic sentences over a 30-word vocabulary whose tag is a function of the
# word (instead of the Kaggle NER dataset), embedding 16, hidden 16, 3 epochs; print instead
# of logging; no checkpoint files.
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class Params:
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)


class Net(nn.Module):
    def __init__(self, params):
        super(Net, self).__init__()
        self.embedding = nn.Embedding(params.vocab_size, params.embedding_dim)
        self.lstm = nn.LSTM(params.embedding_dim, params.lstm_hidden_dim, batch_first=True)
        self.fc = nn.Linear(params.lstm_hidden_dim, params.number_of_tags)

    def forward(self, s):
        s = self.embedding(s)
        s, _ = self.lstm(s)
        s = s.contiguous()
        s = s.view(-1, s.shape[2])
        s = self.fc(s)
        return F.log_softmax(s, dim=1)


def loss_fn(outputs, labels):
    labels = labels.view(-1)
    mask = (labels >= 0).float()
    labels = labels % outputs.shape[1]
    num_tokens = int(torch.sum(mask))
    return -torch.sum(outputs[range(outputs.shape[0]), labels] * mask) / num_tokens


def accuracy(outputs, labels):
    labels = labels.ravel()
    mask = (labels >= 0)
    outputs = np.argmax(outputs, axis=1)
    return np.sum(outputs == labels) / float(np.sum(mask))


metrics = {'accuracy': accuracy}


class RunningAverage():
    def __init__(self):
        self.steps = 0
        self.total = 0

    def update(self, val):
        self.total += val
        self.steps += 1

    def __call__(self):
        return self.total / float(self.steps)


def data_iterator(data, params, pad_ind, shuffle=False):
    order = list(range(data['size']))
    if shuffle:
        random.seed(230)
        random.shuffle(order)
    for i in range((data['size'] + 1) // params.batch_size):
        batch_sentences = [data['data'][idx] for idx in order[i * params.batch_size:(i + 1) * params.batch_size]]
        batch_tags = [data['labels'][idx] for idx in order[i * params.batch_size:(i + 1) * params.batch_size]]
        batch_max_len = max([len(s) for s in batch_sentences])
        batch_data = pad_ind * np.ones((len(batch_sentences), batch_max_len))
        batch_labels = -1 * np.ones((len(batch_sentences), batch_max_len))
        for j in range(len(batch_sentences)):
            cur_len = len(batch_sentences[j])
            batch_data[j][:cur_len] = batch_sentences[j]
            batch_labels[j][:cur_len] = batch_tags[j]
        yield torch.LongTensor(batch_data), torch.LongTensor(batch_labels)


def train(model, optimizer, loss_fn, data_iterator, metrics, params, num_steps):
    model.train()
    summ = []
    loss_avg = RunningAverage()
    for i in range(num_steps):
        train_batch, labels_batch = next(data_iterator)
        output_batch = model(train_batch)
        loss = loss_fn(output_batch, labels_batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if i % params.save_summary_steps == 0:
            output_batch = output_batch.data.cpu().numpy()
            labels_batch = labels_batch.data.cpu().numpy()
            summary_batch = {metric: metrics[metric](output_batch, labels_batch) for metric in metrics}
            summary_batch['loss'] = loss.item()
            summ.append(summary_batch)
        loss_avg.update(loss.item())
    metrics_mean = {metric: np.mean([x[metric] for x in summ]) for metric in summ[0]}
    metrics_string = " ; ".join("{}: {:05.3f}".format(k, v) for k, v in metrics_mean.items())
    print("- Train metrics: " + metrics_string, "(running loss {:05.3f})".format(loss_avg()))


def evaluate(model, loss_fn, data_iterator, metrics, params, num_steps):
    model.eval()
    summ = []
    for _ in range(num_steps):
        data_batch, labels_batch = next(data_iterator)
        output_batch = model(data_batch)
        loss = loss_fn(output_batch, labels_batch)
        output_batch = output_batch.data.cpu().numpy()
        labels_batch = labels_batch.data.cpu().numpy()
        summary_batch = {metric: metrics[metric](output_batch, labels_batch) for metric in metrics}
        summary_batch['loss'] = loss.item()
        summ.append(summary_batch)
    metrics_mean = {metric: np.mean([x[metric] for x in summ]) for metric in summ[0]}
    metrics_string = " ; ".join("{}: {:05.3f}".format(k, v) for k, v in metrics_mean.items())
    print("- Eval metrics : " + metrics_string)
    return metrics_mean


torch.manual_seed(230)
rng = np.random.RandomState(230)
vocab_size, number_of_tags, pad_ind = 30, 4, 0


def make(n):
    sentences, tags = [], []
    for _ in range(n):
        length = rng.randint(3, 9)
        words = rng.randint(1, vocab_size, size=length).tolist()
        sentences.append(words)
        tags.append([(w * 7) % number_of_tags for w in words])
    return {'data': sentences, 'labels': tags, 'size': n}


train_data, val_data = make(40), make(12)
params = Params(vocab_size=vocab_size, embedding_dim=16, lstm_hidden_dim=16,
                number_of_tags=number_of_tags, batch_size=5, learning_rate=1e-2,
                save_summary_steps=2, num_epochs=3)
model = Net(params)
print(model)
optimizer = optim.Adam(model.parameters(), lr=params.learning_rate)
batch, labels = next(data_iterator(train_data, params, pad_ind))
print(batch)
print(labels)
out = model(batch)
print(out.shape, loss_fn(out, labels))
print(accuracy(out.detach().numpy(), labels.numpy()))
best_val_acc = 0.0
for epoch in range(params.num_epochs):
    print("Epoch {}/{}".format(epoch + 1, params.num_epochs))
    num_steps = (params.size if hasattr(params, 'size') else train_data['size'] + 1) // params.batch_size
    train(model, optimizer, loss_fn, data_iterator(train_data, params, pad_ind, shuffle=True),
          metrics, params, num_steps)
    num_steps = (val_data['size'] + 1) // params.batch_size
    val_metrics = evaluate(model, loss_fn, data_iterator(val_data, params, pad_ind), metrics,
                           params, num_steps)
    val_acc = val_metrics['accuracy']
    if val_acc >= best_val_acc:
        print("- Found new best accuracy")
        best_val_acc = val_acc
