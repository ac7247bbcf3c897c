# Corpus program, written for gradsh (no code copied). Modelled on the character-level RNN
# of the PyTorch tutorial "NLP From Scratch: Generating Names with a Character-Level RNN"
# (https://pytorch.org/tutorials/intermediate/char_rnn_generation_tutorial.html) as
# re-implemented in many GitHub char-rnn repositories (e.g. https://github.com/spro/char-rnn.pytorch:
# an nn.Embedding, an nn.GRU, an nn.Linear decoder, a random chunk of text as input and the
# next characters as target, CrossEntropyLoss summed over the chunk, Adam, and sampling with
# torch.multinomial over softmax(output / temperature)).
# Differences: our own code and text (a few repeated words), 60 steps, seeded; printed loss
# rounded; the sample uses a fixed seed.
import torch
import torch.nn as nn

torch.manual_seed(0)
text = "hello world. hello there. help the hero. " * 4
chars = sorted(set(text))
n_chars = len(chars)
char2idx = {c: i for i, c in enumerate(chars)}
print(n_chars, repr("".join(chars)))


def char_tensor(s):
    return torch.tensor([char2idx[c] for c in s], dtype=torch.long)


class CharRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size, n_layers=1):
        super().__init__()
        self.hidden_size = hidden_size
        self.n_layers = n_layers
        self.encoder = nn.Embedding(input_size, hidden_size)
        self.rnn = nn.GRU(hidden_size, hidden_size, n_layers, batch_first=True)
        self.decoder = nn.Linear(hidden_size, output_size)

    def forward(self, inp, hidden):
        out, hidden = self.rnn(self.encoder(inp), hidden)
        return self.decoder(out), hidden

    def init_hidden(self, batch_size):
        return torch.zeros(self.n_layers, batch_size, self.hidden_size)


chunk_len = 20
model = CharRNN(n_chars, 32, n_chars)
print(model)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
criterion = nn.CrossEntropyLoss()
for step in range(1, 61):
    start = torch.randint(0, len(text) - chunk_len - 1, (1,)).item()
    chunk = text[start:start + chunk_len + 1]
    inp = char_tensor(chunk[:-1]).unsqueeze(0)
    target = char_tensor(chunk[1:]).unsqueeze(0)
    hidden = model.init_hidden(1)
    optimizer.zero_grad()
    output, hidden = model(inp, hidden)
    loss = criterion(output.view(-1, n_chars), target.view(-1))
    loss.backward()
    optimizer.step()
    if step % 20 == 0:
        print(f"step {step} loss {loss.item():.3f}")


def generate(prime_str="he", predict_len=15, temperature=0.5):
    hidden = model.init_hidden(1)
    prime = char_tensor(prime_str).unsqueeze(0)
    with torch.no_grad():
        out, hidden = model(prime[:, :-1], hidden) if len(prime_str) > 1 else (None, hidden)
        inp = prime[:, -1:]
        predicted = prime_str
        for _ in range(predict_len):
            out, hidden = model(inp, hidden)
            dist = torch.softmax(out[0, -1] / temperature, dim=0)
            top_i = torch.multinomial(dist, 1)[0].item()
            predicted += chars[top_i]
            inp = torch.tensor([[top_i]])
    return predicted


torch.manual_seed(3)
sample = generate()
print(len(sample), sample[:2])
print(hidden.shape, output.shape)
