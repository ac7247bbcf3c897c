# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial "NLP From
# Scratch: Translation with a Sequence to Sequence Network and Attention", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/intermediate_source/seq2seq_translation_tutorial.py
# Like the original: a Lang class (word2index, word2count, index2word with SOS/EOS),
# normalizeString via unicodedata and re, EncoderRNN (Embedding -> Dropout -> GRU(batch_first)),
# BahdanauAttention (Wa, Ua, Va; scores = Va(tanh(Wa(query) + Ua(keys))), squeeze(2).unsqueeze(1),
# F.softmax, torch.bmm), AttnDecoderRNN with teacher forcing when a target is given and
# topk(1) + squeeze(-1).detach() otherwise, torch.cat of the step outputs and attentions,
# F.log_softmax, NLLLoss over view(-1), two Adam optimizers, the timed progress line replaced by
# "(epoch %) loss", and evaluate() turning decoded ids into words until EOS.
# Differences: our own code; eight tiny French-English pairs written here instead of the data
# download; hidden 32, MAX_LENGTH 6, 60 epochs of full-batch training, a seed; no timing.
import re
import unicodedata

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim

torch.manual_seed(0)
device = torch.device("cpu")
SOS_token, EOS_token, MAX_LENGTH = 0, 1, 6


class Lang:
    def __init__(self, name):
        self.name = name
        self.word2index = {}
        self.word2count = {}
        self.index2word = {0: "SOS", 1: "EOS"}
        self.n_words = 2

    def addSentence(self, sentence):
        for word in sentence.split(' '):
            self.addWord(word)

    def addWord(self, word):
        if word not in self.word2index:
            self.word2index[word] = self.n_words
            self.word2count[word] = 1
            self.index2word[self.n_words] = word
            self.n_words += 1
        else:
            self.word2count[word] += 1


def unicodeToAscii(s):
    return ''.join(c for c in unicodedata.normalize('NFD', s) if unicodedata.category(c) != 'Mn')


def normalizeString(s):
    s = unicodeToAscii(s.lower().strip())
    s = re.sub(r"([.!?])", r" \1", s)
    s = re.sub(r"[^a-zA-Z!?]+", r" ", s)
    return s.strip()


raw = [("Je suis froid.", "I am cold."), ("Il est grand.", "He is tall."),
       ("Elle est très forte!", "She is very strong!"), ("Je suis prêt.", "I am ready."),
       ("Nous sommes amis.", "We are friends."), ("Il est prêt.", "He is ready."),
       ("Elle est grande.", "She is tall."), ("Je suis fort.", "I am strong.")]
pairs = [[normalizeString(a), normalizeString(b)] for a, b in raw]
print(pairs[2])
input_lang, output_lang = Lang('fra'), Lang('eng')
for p in pairs:
    input_lang.addSentence(p[0])
    output_lang.addSentence(p[1])
print("Counted words:", input_lang.name, input_lang.n_words, output_lang.name, output_lang.n_words)


class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size, dropout_p=0.1):
        super(EncoderRNN, self).__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, input):
        embedded = self.dropout(self.embedding(input))
        output, hidden = self.gru(embedded)
        return output, hidden


class BahdanauAttention(nn.Module):
    def __init__(self, hidden_size):
        super(BahdanauAttention, self).__init__()
        self.Wa = nn.Linear(hidden_size, hidden_size)
        self.Ua = nn.Linear(hidden_size, hidden_size)
        self.Va = nn.Linear(hidden_size, 1)

    def forward(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys)))
        scores = scores.squeeze(2).unsqueeze(1)
        weights = F.softmax(scores, dim=-1)
        context = torch.bmm(weights, keys)
        return context, weights


class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size, dropout_p=0.1):
        super(AttnDecoderRNN, self).__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.attention = BahdanauAttention(hidden_size)
        self.gru = nn.GRU(2 * hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, output_size)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, encoder_outputs, encoder_hidden, target_tensor=None):
        batch_size = encoder_outputs.size(0)
        decoder_input = torch.empty(batch_size, 1, dtype=torch.long, device=device).fill_(SOS_token)
        decoder_hidden = encoder_hidden
        decoder_outputs = []
        attentions = []
        for i in range(MAX_LENGTH):
            decoder_output, decoder_hidden, attn_weights = self.forward_step(
                decoder_input, decoder_hidden, encoder_outputs)
            decoder_outputs.append(decoder_output)
            attentions.append(attn_weights)
            if target_tensor is not None:
                decoder_input = target_tensor[:, i].unsqueeze(1)
            else:
                _, topi = decoder_output.topk(1)
                decoder_input = topi.squeeze(-1).detach()
        decoder_outputs = torch.cat(decoder_outputs, dim=1)
        decoder_outputs = F.log_softmax(decoder_outputs, dim=-1)
        attentions = torch.cat(attentions, dim=1)
        return decoder_outputs, decoder_hidden, attentions

    def forward_step(self, input, hidden, encoder_outputs):
        embedded = self.dropout(self.embedding(input))
        query = hidden.permute(1, 0, 2)
        context, attn_weights = self.attention(query, encoder_outputs)
        input_gru = torch.cat((embedded, context), dim=2)
        output, hidden = self.gru(input_gru, hidden)
        output = self.out(output)
        return output, hidden, attn_weights


def indexesFromSentence(lang, sentence):
    return [lang.word2index[word] for word in sentence.split(' ')]


def tensorFromSentence(lang, sentence):
    indexes = indexesFromSentence(lang, sentence)
    indexes.append(EOS_token)
    return torch.tensor(indexes, dtype=torch.long, device=device).view(1, -1)


n = len(pairs)
input_ids = torch.zeros((n, MAX_LENGTH), dtype=torch.long)
target_ids = torch.zeros((n, MAX_LENGTH), dtype=torch.long)
for idx, (inp, tgt) in enumerate(pairs):
    inp_ids = indexesFromSentence(input_lang, inp) + [EOS_token]
    tgt_ids = indexesFromSentence(output_lang, tgt) + [EOS_token]
    input_ids[idx, :len(inp_ids)] = torch.tensor(inp_ids)
    target_ids[idx, :len(tgt_ids)] = torch.tensor(tgt_ids)
print(input_ids[0], target_ids[0])

hidden_size = 32
encoder = EncoderRNN(input_lang.n_words, hidden_size).to(device)
decoder = AttnDecoderRNN(hidden_size, output_lang.n_words).to(device)
encoder_optimizer = optim.Adam(encoder.parameters(), lr=0.01)
decoder_optimizer = optim.Adam(decoder.parameters(), lr=0.01)
criterion = nn.NLLLoss()

n_epochs = 60
for epoch in range(1, n_epochs + 1):
    encoder_optimizer.zero_grad()
    decoder_optimizer.zero_grad()
    encoder_outputs, encoder_hidden = encoder(input_ids)
    decoder_outputs, _, _ = decoder(encoder_outputs, encoder_hidden, target_ids)
    loss = criterion(decoder_outputs.view(-1, decoder_outputs.size(-1)), target_ids.view(-1))
    loss.backward()
    encoder_optimizer.step()
    decoder_optimizer.step()
    if epoch % 10 == 0:
        print('(%d %d%%) %.4f' % (epoch, epoch / n_epochs * 100, loss.item()))


def evaluate(encoder, decoder, sentence, input_lang, output_lang):
    with torch.no_grad():
        input_tensor = tensorFromSentence(input_lang, sentence)
        encoder_outputs, encoder_hidden = encoder(input_tensor)
        decoder_outputs, decoder_hidden, decoder_attn = decoder(encoder_outputs, encoder_hidden)
        _, topi = decoder_outputs.topk(1)
        decoded_ids = topi.squeeze()
        decoded_words = []
        for idx in decoded_ids:
            if idx.item() == EOS_token:
                decoded_words.append('<EOS>')
                break
            decoded_words.append(output_lang.index2word[idx.item()])
    return decoded_words, decoder_attn


encoder.eval()
decoder.eval()
for pair in pairs[:4]:
    print('>', pair[0])
    print('=', pair[1])
    output_words, attentions = evaluate(encoder, decoder, pair[0], input_lang, output_lang)
    print('<', ' '.join(output_words))
print(attentions.shape)
print(attentions[0, 0])
