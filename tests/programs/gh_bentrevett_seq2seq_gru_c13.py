# Corpus program, written for gradsh (no code copied). Modelled on Ben Trevett's
# pytorch-seq2seq tutorial 2 "Learning Phrase Representations using RNN Encoder-Decoder"
# (MIT): https://github.com/bentrevett/pytorch-seq2seq/blob/main/2%20-%20Learning%20Phrase%20Representations%20using%20RNN%20Encoder-Decoder%20for%20Statistical%20Machine%20Translation.ipynb
# Like the original: an Encoder (Embedding, Dropout, nn.GRU over (src_len, batch)), a Decoder
# that feeds the context vector into every step (GRU input = embedded + context, the output
# layer on cat(embedded, hidden, context)), a Seq2Seq module with teacher forcing chosen by
# random.random() < teacher_forcing_ratio, init_weights with nn.init.normal_(std=0.01),
# count_parameters printed with f"{...:,}", the optimizer Adam, CrossEntropyLoss with
# ignore_index=pad, output[1:].view(-1, output_dim), clip_grad_norm_, train / evaluate
# functions (teacher forcing 0 in evaluate), math.exp of the loss as perplexity, and a greedy
# translate_sentence.
# Differences: a synthetic "translation" task (reverse a sequence of token ids and shift them)
# instead of Multi30k / spaCy, vocabularies of 12 tokens, embedding 8, hidden 16, 3 epochs of
# 6 batches; seeded (random and torch).
import math
import random

import torch
import torch.nn as nn

SEED = 1234
random.seed(SEED)
torch.manual_seed(SEED)
PAD, SOS, EOS = 0, 1, 2
VOCAB = 12


def make_pair():
    n = random.randint(2, 5)
    src = [random.randint(3, VOCAB - 1) for _ in range(n)]
    trg = [3 + (t - 3 + 1) % (VOCAB - 3) for t in reversed(src)]
    return [SOS] + src + [EOS], [SOS] + trg + [EOS]


def batchify(pairs):
    src_len = max(len(s) for s, _ in pairs)
    trg_len = max(len(t) for _, t in pairs)
    src = torch.tensor([s + [PAD] * (src_len - len(s)) for s, _ in pairs]).T.contiguous()
    trg = torch.tensor([t + [PAD] * (trg_len - len(t)) for _, t in pairs]).T.contiguous()
    return src, trg


train_batches = [batchify([make_pair() for _ in range(16)]) for _ in range(6)]
valid_batches = [batchify([make_pair() for _ in range(16)]) for _ in range(2)]
print(train_batches[0][0].shape, train_batches[0][1][:, 0])


class Encoder(nn.Module):
    def __init__(self, input_dim, emb_dim, hid_dim, dropout):
        super().__init__()
        self.hid_dim = hid_dim
        self.embedding = nn.Embedding(input_dim, emb_dim)
        self.rnn = nn.GRU(emb_dim, hid_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, src):
        embedded = self.dropout(self.embedding(src))
        outputs, hidden = self.rnn(embedded)
        return hidden


class Decoder(nn.Module):
    def __init__(self, output_dim, emb_dim, hid_dim, dropout):
        super().__init__()
        self.hid_dim = hid_dim
        self.output_dim = output_dim
        self.embedding = nn.Embedding(output_dim, emb_dim)
        self.rnn = nn.GRU(emb_dim + hid_dim, hid_dim)
        self.fc_out = nn.Linear(emb_dim + hid_dim * 2, output_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, input, hidden, context):
        input = input.unsqueeze(0)
        embedded = self.dropout(self.embedding(input))
        emb_con = torch.cat((embedded, context), dim=2)
        output, hidden = self.rnn(emb_con, hidden)
        output = torch.cat((embedded.squeeze(0), hidden.squeeze(0), context.squeeze(0)), dim=1)
        prediction = self.fc_out(output)
        return prediction, hidden


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder, device):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.device = device
        assert encoder.hid_dim == decoder.hid_dim, \
            "Hidden dimensions of encoder and decoder must be equal!"

    def forward(self, src, trg, teacher_forcing_ratio=0.5):
        batch_size = trg.shape[1]
        trg_len = trg.shape[0]
        trg_vocab_size = self.decoder.output_dim
        outputs = torch.zeros(trg_len, batch_size, trg_vocab_size).to(self.device)
        context = self.encoder(src)
        hidden = context
        input = trg[0, :]
        for t in range(1, trg_len):
            output, hidden = self.decoder(input, hidden, context)
            outputs[t] = output
            teacher_force = random.random() < teacher_forcing_ratio
            top1 = output.argmax(1)
            input = trg[t] if teacher_force else top1
        return outputs


device = torch.device('cpu')
enc = Encoder(VOCAB, 8, 16, 0.5)
dec = Decoder(VOCAB, 8, 16, 0.5)
model = Seq2Seq(enc, dec, device).to(device)


def init_weights(m):
    for name, param in m.named_parameters():
        nn.init.normal_(param.data, mean=0, std=0.01)


print(model.apply(init_weights))


def count_parameters(model):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


print(f'The model has {count_parameters(model):,} trainable parameters')
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
criterion = nn.CrossEntropyLoss(ignore_index=PAD)


def train(model, batches, optimizer, criterion, clip):
    model.train()
    epoch_loss = 0
    for i, (src, trg) in enumerate(batches):
        optimizer.zero_grad()
        output = model(src, trg)
        output_dim = output.shape[-1]
        output = output[1:].view(-1, output_dim)
        trg = trg[1:].view(-1)
        loss = criterion(output, trg)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        epoch_loss += loss.item()
    return epoch_loss / len(batches), norm


def evaluate(model, batches, criterion):
    model.eval()
    epoch_loss = 0
    with torch.no_grad():
        for i, (src, trg) in enumerate(batches):
            output = model(src, trg, 0)
            output_dim = output.shape[-1]
            output = output[1:].view(-1, output_dim)
            trg = trg[1:].view(-1)
            loss = criterion(output, trg)
            epoch_loss += loss.item()
    return epoch_loss / len(batches)


best_valid_loss = float('inf')
for epoch in range(3):
    train_loss, norm = train(model, train_batches, optimizer, criterion, 1)
    valid_loss = evaluate(model, valid_batches, criterion)
    if valid_loss < best_valid_loss:
        best_valid_loss = valid_loss
        best_state = {k: v.clone() for k, v in model.state_dict().items()}
    print(f'Epoch: {epoch + 1:02}')
    print(f'\tTrain Loss: {train_loss:.3f} | Train PPL: {math.exp(train_loss):7.3f} | norm {norm:.4f}')
    print(f'\t Val. Loss: {valid_loss:.3f} |  Val. PPL: {math.exp(valid_loss):7.3f}')
print(list(best_state)[:4], best_state['decoder.fc_out.bias'][:4])


def translate_sentence(tokens, model, max_len=10):
    model.eval()
    src = torch.LongTensor([SOS] + tokens + [EOS]).unsqueeze(1)
    with torch.no_grad():
        context = model.encoder(src)
    hidden = context
    trg_indexes = [SOS]
    for i in range(max_len):
        trg_tensor = torch.LongTensor([trg_indexes[-1]])
        with torch.no_grad():
            output, hidden = model.decoder(trg_tensor, hidden, context)
        pred_token = output.argmax(1).item()
        trg_indexes.append(pred_token)
        if pred_token == EOS:
            break
    return trg_indexes


print(translate_sentence([4, 5, 6], model))
print(translate_sentence([10, 3], model))
