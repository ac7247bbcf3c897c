# Corpus program, written for gradsh (no code copied). Modelled on the streaming generator of
# FastChat (https://github.com/lm-sys/FastChat/blob/main/fastchat/serve/inference.py,
# generate_stream), copied into many Chinese LLM serving projects (Baichuan, ChatGLM
# demos): a generator function decorated with @torch.inference_mode() that encodes the prompt,
# keeps output_ids, feeds the last token with a KV-free recomputation each step, samples with
# softmax(logits / temperature) and torch.multinomial (greedy argmax when temperature is
# small), stops on the stop token, and yields {"text": ...} every stream_interval tokens. One
# of the copies notes that calling the model's tensors in autograd afterwards fails with
# "Inference tensors cannot be saved for backward": the caller below does that and prints the
# error, and prints the grad mode seen by the caller between steps.
# Differences: a tiny character-level model (Embedding + GRU + Linear, random weights, seeded)
# and a character tokenizer stand in for the HF model and tokenizer; params as in FastChat.
import torch
import torch.nn as nn

torch.manual_seed(0)
VOCAB = list("abcdefghij .")
STOI = {c: i for i, c in enumerate(VOCAB)}


class CharTokenizer:
    eos_token = "."

    def __call__(self, text):
        return [STOI[c] for c in text]

    def decode(self, ids):
        return "".join(VOCAB[i] for i in ids)


class TinyLM(nn.Module):
    def __init__(self, vocab=len(VOCAB), dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, input_ids):
        h, _ = self.rnn(self.emb(input_ids))
        return self.head(h)


@torch.inference_mode()
def generate_stream(model, tokenizer, params, device, context_len=64, stream_interval=2):
    prompt = params["prompt"]
    temperature = float(params.get("temperature", 1.0))
    max_new_tokens = int(params.get("max_new_tokens", 16))
    stop_token = STOI[tokenizer.eos_token]
    input_ids = tokenizer(prompt)
    output_ids = list(input_ids)
    max_src_len = context_len - max_new_tokens - 8
    input_ids = input_ids[-max_src_len:]
    for i in range(max_new_tokens):
        logits = model(torch.as_tensor([output_ids], device=device))
        last_token_logits = logits[0][-1]
        if temperature < 1e-4:
            token = int(torch.argmax(last_token_logits))
        else:
            probs = torch.softmax(last_token_logits / temperature, dim=-1)
            token = int(torch.multinomial(probs, num_samples=1))
        output_ids.append(token)
        stopped = token == stop_token
        if i % stream_interval == 0 or i == max_new_tokens - 1 or stopped:
            yield {"text": tokenizer.decode(output_ids[len(input_ids):]),
                   "grad": torch.is_grad_enabled(),
                   "inference": torch.is_inference_mode_enabled(),
                   "logits_is_inference": last_token_logits.is_inference()}
        if stopped:
            break
    yield {"final": torch.as_tensor(output_ids)}


model = TinyLM()
model.eval()
tokenizer = CharTokenizer()
for temperature in (0.0, 0.7, 1.3):
    params = {"prompt": "abc def", "temperature": temperature, "max_new_tokens": 10}
    print("temperature", temperature)
    for out in generate_stream(model, tokenizer, params, "cpu"):
        if "final" in out:
            final = out["final"]
            print("final ids", final, final.is_inference(), final.requires_grad)
        else:
            print(out, torch.is_grad_enabled(), torch.is_inference_mode_enabled())

print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
try:
    emb = model.emb(final)
    print(emb.requires_grad, emb.is_inference())
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    emb = model.emb(final)
print(emb.requires_grad, emb.is_inference())
try:
    logits = model(final[None].clone())
    logits.sum().backward()
    print("backward ok", model.head.bias.grad[:3])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    final.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
scaled = final.clone() * 2
print(scaled.is_inference(), scaled)
