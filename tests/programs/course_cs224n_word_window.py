# Corpus program, written for gradsh (no code copied). Modelled on the Stanford CS224n
# "PyTorch Tutorial" notebook (https://web.stanford.edu/class/cs224n/ , "Demo: Word Window
# Classification"): a tiny corpus of sentences with LOCATION words labelled 1, preprocess
# (lower-case, split), a vocabulary with <pad> and <unk>, convert_token_to_indices, pad_window
# adding window_size pads on both sides, a custom_collate_fn (padding to the batch's longest
# sentence with pad_sequence, labels padded with 0, lengths kept) passed to DataLoader through
# functools.partial, a WordWindowClassifier (nn.Embedding, Tensor.unfold to make windows,
# a hidden layer with Tanh, a Linear to 1 and Sigmoid), a loss_function that masks padded
# positions and averages by lengths, SGD training and a prediction on a test sentence.
# Differences: our own code and sentences; fewer epochs; seeded.
from functools import partial

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

torch.manual_seed(0)
corpus = ["We always come to Paris", "The professor is from Australia",
          "I live in Stanford", "He comes from Taiwan",
          "The capital of Turkey is Ankara"]
locations = {"australia", "ankara", "paris", "stanford", "taiwan", "turkey"}


def preprocess_sentence(sentence):
    return sentence.lower().split()


train_sentences = [preprocess_sentence(sent) for sent in corpus]
train_labels = [[1 if word in locations else 0 for word in sent] for sent in train_sentences]
print(train_sentences[0], train_labels[0])
vocabulary = sorted(set(w for s in train_sentences for w in s))
vocabulary.insert(0, "<unk>")
vocabulary.insert(0, "<pad>")
ix_to_word = sorted(list(vocabulary))
word_to_ix = {word: ind for ind, word in enumerate(ix_to_word)}
print(len(word_to_ix), word_to_ix["<pad>"], word_to_ix["<unk>"])


def convert_token_to_indices(sentence, word_to_ix):
    return [word_to_ix.get(token, word_to_ix["<unk>"]) for token in sentence]


def pad_window(sentence, window_size, pad_token="<pad>"):
    window = [pad_token] * window_size
    return window + sentence + window


window_size = 2
print(pad_window(train_sentences[0], window_size=window_size))
example_padded_indices = convert_token_to_indices(pad_window(train_sentences[0], window_size),
                                                  word_to_ix)
print(example_padded_indices)


def custom_collate_fn(batch, window_size, word_to_ix):
    x, y = zip(*batch)
    x = [pad_window(s, window_size=window_size) for s in x]
    x = [convert_token_to_indices(s, word_to_ix) for s in x]
    pad_token_ix = word_to_ix["<pad>"]
    x = [torch.LongTensor(x_i) for x_i in x]
    x_padded = nn.utils.rnn.pad_sequence(x, batch_first=True, padding_value=pad_token_ix)
    lengths = torch.LongTensor([len(label) for label in y])
    y = [torch.LongTensor(y_i) for y_i in y]
    y_padded = nn.utils.rnn.pad_sequence(y, batch_first=True, padding_value=0)
    return x_padded, y_padded, lengths


data = list(zip(train_sentences, train_labels))
collate_fn = partial(custom_collate_fn, window_size=window_size, word_to_ix=word_to_ix)
loader = DataLoader(data, batch_size=2, shuffle=True, collate_fn=collate_fn)
for counter, (batched_x, batched_y, batched_lengths) in enumerate(loader):
    print(f"Iteration {counter}")
    print("Batched Input:")
    print(batched_x)
    print("Batched Labels:")
    print(batched_y)
    print("Batched Lengths:")
    print(batched_lengths)
    print("")
    if counter == 0:
        break
print(batched_x.unfold(1, window_size * 2 + 1, 1))


class WordWindowClassifier(nn.Module):
    def __init__(self, hyperparameters, vocab_size, pad_ix=0):
        super().__init__()
        self.window_size = hyperparameters["window_size"]
        self.embed_dim = hyperparameters["embed_dim"]
        self.hidden_dim = hyperparameters["hidden_dim"]
        self.freeze_embeddings = hyperparameters["freeze_embeddings"]
        self.embeds = nn.Embedding(vocab_size, self.embed_dim, padding_idx=pad_ix)
        if self.freeze_embeddings:
            self.embed_layer.weight.requires_grad = False
        full_window_size = 2 * window_size + 1
        self.hidden_layer = nn.Sequential(nn.Linear(full_window_size * self.embed_dim,
                                                    self.hidden_dim), nn.Tanh())
        self.output_layer = nn.Linear(self.hidden_dim, 1)
        self.probabilities = nn.Sigmoid()

    def forward(self, inputs):
        B, L = inputs.size()
        token_windows = inputs.unfold(1, 2 * self.window_size + 1, 1)
        _, adjusted_length, _ = token_windows.size()
        assert token_windows.size() == (B, adjusted_length, 2 * self.window_size + 1)
        embedded_windows = self.embeds(token_windows)
        embedded_windows = embedded_windows.view(B, adjusted_length, -1)
        layer_1 = self.hidden_layer(embedded_windows)
        output = self.output_layer(layer_1)
        output = self.probabilities(output)
        return output.view(B, -1)


model_hyperparameters = {"batch_size": 4, "window_size": 2, "embed_dim": 25, "hidden_dim": 25,
                         "freeze_embeddings": False}
vocab_size = len(word_to_ix)
model = WordWindowClassifier(model_hyperparameters, vocab_size)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)


def loss_function(batch_outputs, batch_labels, batch_lengths):
    bceloss = nn.BCELoss()
    loss = bceloss(batch_outputs, batch_labels.float())
    return loss / batch_lengths.sum().float()


def train_epoch(loss_function, optimizer, model, loader):
    total_loss = 0
    for batch_inputs, batch_labels, batch_lengths in loader:
        optimizer.zero_grad()
        outputs = model.forward(batch_inputs)
        loss = loss_function(outputs, batch_labels, batch_lengths)
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
    return total_loss


num_epochs = 300
for epoch in range(num_epochs):
    epoch_loss = train_epoch(loss_function, optimizer, model, loader)
    if epoch % 100 == 0:
        print(round(epoch_loss, 4))
test_corpus = ["She comes from Paris"]
test_sentences = [s.lower().split() for s in test_corpus]
test_labels = [[0, 0, 0, 1]]
test_data = list(zip(test_sentences, test_labels))
test_loader = DataLoader(test_data, batch_size=1, shuffle=False, collate_fn=collate_fn)
for test_instance, labels, _ in test_loader:
    outputs = model.forward(test_instance)
    print(labels)
    print((outputs > 0.5).long(), outputs.shape)
