# Corpus program, written for gradsh (no code copied). Modelled on Sung Kim's "PyTorch Zero To
# All" 14_1_seq2seq.py / 14_2_seq2seq_att.py and their seq2seq_models.py (after spro's
# practical-pytorch seq2seq translation notebook):
# https://github.com/hunkim/PyTorchZeroToAll/blob/master/seq2seq_models.py
# Like the original: strings turned into LongTensors of character codes (ord, an EOS of 1, an
# SOS of chr(0)); an EncoderRNN (Embedding + GRU over the whole string, view(seq_len, 1, -1));
# a DecoderRNN run one step at a time; an AttnDecoderRNN whose attention scores are written
# one by one into a zeros tensor (attn_scores[i] = torch.dot(...)) and normalised with
# F.softmax without a dim; the test() that prints encoder outputs and decoder sizes; training
# with teacher forcing, a loss summed over the target characters, Adam; translate() sampling
# with torch.multinomial on exp(output / temperature) and chr() of the sampled index.
# Differences: hidden size 16 and 32 character codes (letters mapped into 2..31) instead of
# 100 and 128; three synthetic word pairs (reversal) instead of the text dataset; a seed; 30
# steps; `top_i == EOS_token` instead of the original's identity test.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)

SOS_token = chr(0)
EOS_token = 1
N_CHARS = 32
HIDDEN_SIZE = 16


def code(c):
    return 0 if c == SOS_token else 2 + (ord(c) - ord('a')) % 30


def str2tensor(msg, eos=False):
    tensor = [code(c) for c in msg]
    if eos:
        tensor.append(EOS_token)
    return torch.LongTensor(tensor)


class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size, n_layers=1):
        self.hidden_size = hidden_size
        self.n_layers = n_layers
        super(EncoderRNN, self).__init__()
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, n_layers)

    def forward(self, word_inputs, hidden):
        seq_len = len(word_inputs)
        embedded = self.embedding(word_inputs).view(seq_len, 1, -1)
        output, hidden = self.gru(embedded, hidden)
        return output, hidden

    def init_hidden(self):
        return torch.zeros(self.n_layers, 1, self.hidden_size)


class DecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size, n_layers=1):
        super(DecoderRNN, self).__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, n_layers)
        self.out = nn.Linear(hidden_size, output_size)

    def forward(self, input, hidden):
        output = self.embedding(input).view(1, 1, -1)
        output, hidden = self.gru(output, hidden)
        output = self.out(output[0])
        return output, hidden


class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size, n_layers=1, dropout_p=0.1):
        super(AttnDecoderRNN, self).__init__()
        self.attn = nn.Linear(hidden_size, hidden_size)
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, n_layers, dropout=dropout_p)
        self.out = nn.Linear(hidden_size * 2, output_size)

    def forward(self, word_input, last_hidden, encoder_hiddens):
        rnn_input = self.embedding(word_input).view(1, 1, -1)
        rnn_output, hidden = self.gru(rnn_input, last_hidden)
        attn_weights = self.get_att_weight(rnn_output.squeeze(0), encoder_hiddens)
        context = attn_weights.bmm(encoder_hiddens.transpose(0, 1))
        rnn_output = rnn_output.squeeze(0)
        context = context.squeeze(1)
        output = self.out(torch.cat((rnn_output, context), 1))
        return output, hidden, attn_weights

    def get_att_weight(self, hidden, encoder_hiddens):
        seq_len = len(encoder_hiddens)
        attn_scores = torch.zeros(seq_len)
        for i in range(seq_len):
            attn_scores[i] = self.get_att_score(hidden, encoder_hiddens[i])
        return F.softmax(attn_scores).view(1, 1, -1)

    def get_att_score(self, hidden, encoder_hidden):
        score = self.attn(encoder_hidden)
        return torch.dot(hidden.view(-1), score.view(-1))


encoder = EncoderRNN(N_CHARS, HIDDEN_SIZE)
decoder = DecoderRNN(HIDDEN_SIZE, N_CHARS)
print(encoder, decoder)


def test():
    encoder_hidden = encoder.init_hidden()
    word_input = str2tensor('hello')
    encoder_outputs, encoder_hidden = encoder(word_input, encoder_hidden)
    print(encoder_outputs)
    decoder_hidden = encoder_hidden
    word_target = str2tensor('pytorch')
    for c in range(len(word_target)):
        decoder_output, decoder_hidden = decoder(word_target[c], decoder_hidden)
        print(decoder_output.size(), decoder_hidden.size())


test()

params = list(encoder.parameters()) + list(decoder.parameters())
optimizer = torch.optim.Adam(params, lr=0.01)
criterion = nn.CrossEntropyLoss()


def train(src, target):
    src_var = str2tensor(src)
    target_var = str2tensor(target, eos=True)
    encoder_hidden = encoder.init_hidden()
    encoder_outputs, encoder_hidden = encoder(src_var, encoder_hidden)
    hidden = encoder_hidden
    loss = 0
    for c in range(len(target_var)):
        token = target_var[c - 1] if c else str2tensor(SOS_token)
        output, hidden = decoder(token, hidden)
        loss += criterion(output, target_var[c].view(1))
    encoder.zero_grad()
    decoder.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item() / len(target_var)


def translate(enc_input='abcde', predict_len=8, temperature=0.9):
    input_var = str2tensor(enc_input)
    encoder_hidden = encoder.init_hidden()
    encoder_outputs, encoder_hidden = encoder(input_var, encoder_hidden)
    hidden = encoder_hidden
    predicted = ''
    dec_input = str2tensor(SOS_token)
    for c in range(predict_len):
        output, hidden = decoder(dec_input, hidden)
        output_dist = output.data.view(-1).div(temperature).exp()
        top_i = torch.multinomial(output_dist, 1)[0]
        if top_i == EOS_token:
            break
        predicted_char = chr(ord('a') + top_i - 2) if top_i >= 2 else '?'
        predicted += predicted_char
        dec_input = str2tensor(predicted_char)
    return enc_input, predicted


pairs = [('abc', 'cba'), ('hello', 'olleh'), ('dog', 'god')]
for step in range(30):
    src, target = pairs[step % len(pairs)]
    train_loss = train(src, target)
    if step % 6 == 0:
        print('[(%d %d%%) %.4f]' % (step, step / 30 * 100, train_loss))
        print(translate(src), '\n')

attn_decoder = AttnDecoderRNN(HIDDEN_SIZE, N_CHARS)
attn_decoder.eval()
enc_out, enc_hidden = encoder(str2tensor('hello'), encoder.init_hidden())
out, hid, weights = attn_decoder(str2tensor(SOS_token), enc_hidden, enc_out)
print(out.shape, hid.shape, weights)
print(weights.grad_fn, weights.grad_fn.next_functions)
out.sum().backward()
print(attn_decoder.attn.weight.grad.norm(), encoder.embedding.weight.grad.abs().sum())
