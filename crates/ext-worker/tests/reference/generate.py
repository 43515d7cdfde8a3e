#!/usr/bin/env python3
"""Reference data for Tab Whisperer's Rust/Candle Whisper engine.

Builds two small random-weight Whisper models in the Hugging Face hub layout and
records what the ORIGINAL implementation (openai-whisper, PyPI) computes with
them, so the Rust engine can be tested for parity without any downloaded model.

How to run (from anywhere; everything is written next to this file):

    apt-get install espeak-ng sox                  # Debian; for audio/speech*.wav
    pip install openai-whisper transformers safetensors tokenizers
    python3 crates/ext-worker/tests/reference/generate.py

openai-whisper brings torch, numpy and tiktoken, and ships the tokenizer ranks
(whisper/assets/*.tiktoken) and the mel filter bank (mel_filters.npz) used
here. transformers is only used for an optional cross-check that the saved
folder loads as a WhisperForConditionalGeneration and agrees with openai-whisper
(skipped with a note if transformers is missing). Nothing is downloaded.

Everything is seeded, so a re-run rewrites identical files (given the same
espeak-ng/sox versions for speech*.wav and the same torch for the outputs;
versions are recorded in outputs/manifest.json). The script ASSERTS:
  * tokenizer.json (Python `tokenizers`) gives tiktoken's ids for test texts
    and the right strings for every special id;
  * the f16 weights in model.safetensors load into openai-whisper's `Whisper`
    (names mapped back from the Hugging Face names) with strict key checking;
  * an independent step-by-step greedy decoder (same suppress lists) gives the
    tokens of whisper.decode, and the token log-probs recorded agree;
  * at every decoding step, the top-1 minus top-2 filtered logit is at least
    MIN_MARGIN, so float rounding differences cannot change a greedy choice;
  * some case decodes several tokens, and every decode ends by EOT or sample_len.
See README.md next to this file for the layout of the outputs.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import wave
import zlib
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

import whisper
from whisper.decoding import DecodingOptions, DecodingTask
from whisper.model import ModelDimensions, Whisper
from whisper.tokenizer import get_encoding, get_tokenizer

from safetensors.numpy import load_file, save_file
from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, processors

HERE = Path(__file__).resolve().parent
AUDIO_DIR = HERE / "audio"
MODELS_DIR = HERE / "models"
OUT_DIR = HERE / "outputs"

SAMPLE_RATE = 16000
SPEECH_TEXT = "hey fox close the youtube tabs"
PROMPT = "hey fox"
WAKE_PHRASE = " hey fox"  # tokenizer.encode(" hey fox"), teacher-forced
REF_AUDIOS = ["tone", "noise", "speech"]  # cases with reference outputs
MIN_MARGIN = 0.05  # required top1 - top2 (filtered logits) at every greedy step

# Weight scales (std of N(0, std) unless said otherwise); a model spec's "init"
# overrides these. Why not plain small-std init: greedy decoding must be
# decisive and not trivially "repeat the first token 224 times".
#  * token_embedding_std=1 and final_ln_gain=3 (the decoder's last LayerNorm,
#    weight and bias, times 3) spread the tied output logits;
#  * dec_out_gain scales the decoder's attention-out and fc2 weights, so the
#    residual stream is not dominated by the input token's own (tied) embedding;
#  * qk_gain sharpens attention so the audio (mostly padding) still matters;
#  * the <|endoftext|> row is scaled by eot_row_gain so that some decodes stop;
#  * the <|nospeech|> row (which never enters the decoder: it is suppressed and
#    never an input) is set to nospeech_scale * u, u the unit vector of the
#    final-LayerNorm output at the <|startoftranscript|> position for 30 s of
#    silence, scaled so that for silence its logit is nospeech_offset above the
#    best other logit: no_speech_prob then takes non-trivial values.
INIT = dict(
    token_embedding_std=1.0,
    eot_row_gain=3.5,
    text_pos_std=0.5,
    qk_gain=2.0,
    dec_out_gain=3.0,
    final_ln_gain=3.0,
    bias_std=0.1,
    ln_weight_std=0.1,  # LayerNorm weight = 1 + N(0, std)
    ln_bias_std=0.1,
    nospeech_offset=1.0,
)

MODEL_SPECS = [
    dict(
        name="tiny-random",
        multilingual=True,
        seed=3,
        init=dict(dec_out_gain=3.0),
        dims=dict(
            n_mels=80, n_audio_ctx=1500, n_audio_state=32, n_audio_head=2, n_audio_layer=2,
            n_vocab=51865, n_text_ctx=448, n_text_state=32, n_text_head=2, n_text_layer=1,
        ),
    ),
    dict(
        name="tiny-random.en",
        multilingual=False,
        seed=2,
        init=dict(dec_out_gain=6.0),
        # encoder and decoder head counts differ on purpose (2 vs 4)
        dims=dict(
            n_mels=80, n_audio_ctx=1500, n_audio_state=32, n_audio_head=2, n_audio_layer=1,
            n_vocab=51864, n_text_ctx=448, n_text_state=32, n_text_head=4, n_text_layer=2,
        ),
    ),
]

# openai-whisper name fragment -> Hugging Face name fragment, exactly as in
# transformers' models/whisper/convert_openai_to_hf.py (WHISPER_MAPPING); the
# HF names are then prefixed with "model.".
WHISPER_MAPPING = {
    "blocks": "layers",
    "mlp.0": "fc1",
    "mlp.2": "fc2",
    "mlp_ln": "final_layer_norm",
    ".attn.query": ".self_attn.q_proj",
    ".attn.key": ".self_attn.k_proj",
    ".attn.value": ".self_attn.v_proj",
    ".attn_ln": ".self_attn_layer_norm",
    ".attn.out": ".self_attn.out_proj",
    ".cross_attn.query": ".encoder_attn.q_proj",
    ".cross_attn.key": ".encoder_attn.k_proj",
    ".cross_attn.value": ".encoder_attn.v_proj",
    ".cross_attn_ln": ".encoder_attn_layer_norm",
    ".cross_attn.out": ".encoder_attn.out_proj",
    "decoder.ln.": "decoder.layer_norm.",
    "encoder.ln.": "encoder.layer_norm.",
    "token_embedding": "embed_tokens",
    "encoder.positional_embedding": "encoder.embed_positions.weight",
    "decoder.positional_embedding": "decoder.embed_positions.weight",
    "ln_post": "layer_norm",
}


def openai_to_hf_key(key: str) -> str:
    new_key = key
    for k, v in WHISPER_MAPPING.items():
        if k in key:
            new_key = new_key.replace(k, v)
    return "model." + new_key


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def rel(path: Path) -> str:
    return str(path.relative_to(HERE))


# --------------------------------------------------------------------------- audio


def write_wav_int16(path: Path, samples: np.ndarray, rate: int, channels: int = 1):
    assert samples.dtype == np.int16
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.astype("<i2").tobytes())


def write_wav_float32(path: Path, samples: np.ndarray, rate: int):
    """WAVE_FORMAT_IEEE_FLOAT (3), mono, 32-bit, with an 18-byte fmt chunk and a fact chunk."""
    data = samples.astype("<f4").tobytes()
    fmt = struct.pack("<HHIIHHH", 3, 1, rate, rate * 4, 4, 32, 0)
    fact = struct.pack("<I", len(samples))
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"fact" + struct.pack("<I", len(fact)) + fact
    body += b"data" + struct.pack("<I", len(data)) + data
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)


def read_wav_int16(path: Path) -> np.ndarray:
    """16-bit PCM mono 16 kHz -> float32 samples, exactly int16 / 32768.0 (no ffmpeg)."""
    with wave.open(str(path), "rb") as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1 and w.getframerate() == SAMPLE_RATE, path
        raw = w.readframes(w.getnframes())
    return (np.frombuffer(raw, dtype="<i2").astype(np.float32) / 32768.0).astype(np.float32)


def tool_version(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=True)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except Exception as e:  # noqa: BLE001
        return f"unavailable ({e})"


def make_audio() -> dict:
    AUDIO_DIR.mkdir(parents=True, exist_ok=True)
    info = {}

    # tone: 440 Hz, amplitude 0.3, 1.5 s
    n = int(1.5 * SAMPLE_RATE)
    t = np.arange(n, dtype=np.float64) / SAMPLE_RATE
    tone = np.round(0.3 * 32767.0 * np.sin(2 * np.pi * 440.0 * t)).astype(np.int16)
    write_wav_int16(AUDIO_DIR / "tone.wav", tone, SAMPLE_RATE)
    info["tone"] = "440 Hz sine, amplitude 0.3 (round(0.3*32767*sin)), 1.5 s, 16-bit PCM 16 kHz mono"

    # float32.wav: the same tone as IEEE float, values exactly tone_int16 / 32768
    write_wav_float32(AUDIO_DIR / "float32.wav", tone.astype(np.float32) / np.float32(32768.0), SAMPLE_RATE)
    info["float32"] = ("tone.wav's samples as 32-bit IEEE float WAV (format tag 3, 18-byte fmt + fact chunk), "
                       "16 kHz mono; values are exactly tone_int16/32768, so they decode to the same floats as tone.wav")

    # noise: seeded white noise, 1 s
    rng = np.random.default_rng(1234)
    noise = np.round(rng.uniform(-0.25, 0.25, SAMPLE_RATE) * 32767.0).astype(np.int16)
    write_wav_int16(AUDIO_DIR / "noise.wav", noise, SAMPLE_RATE)
    info["noise"] = "uniform white noise in [-0.25, 0.25] (numpy default_rng(1234)), 1 s, 16-bit PCM 16 kHz mono"

    # speech: espeak-ng, then sox (no dither, so it is repeatable)
    for tool in ("espeak-ng", "sox"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} not found: apt-get install espeak-ng sox")
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "espeak.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(raw), SPEECH_TEXT], check=True)
        subprocess.run(["sox", "-D", "-R", str(raw), "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer",
                        str(AUDIO_DIR / "speech.wav")], check=True)
        subprocess.run(["sox", "-D", "-R", str(raw), "-r", "44100", "-c", "2", "-b", "16", "-e", "signed-integer",
                        str(AUDIO_DIR / "speech-44k-stereo.wav")], check=True)
    info["speech"] = (f'espeak-ng -v en-us "{SPEECH_TEXT}", resampled with sox -D -R to 16 kHz mono 16-bit PCM')
    info["speech-44k-stereo"] = "the same espeak-ng output resampled with sox -D -R to 44.1 kHz, 2 identical channels, 16-bit PCM"

    files = {}
    for name in ["tone", "noise", "speech", "speech-44k-stereo", "float32"]:
        p = AUDIO_DIR / f"{name}.wav"
        if name == "float32":
            rate, ch, frames = SAMPLE_RATE, 1, len(tone)
        else:
            with wave.open(str(p), "rb") as w:
                rate, ch, frames = w.getframerate(), w.getnchannels(), w.getnframes()
        dur = frames / rate
        assert dur <= 3.0, (name, dur)
        files[name] = dict(file=rel(p), sample_rate=rate, channels=ch, frames=frames, seconds=round(dur, 4),
                           sha256=sha256(p), description=info[name])
    return files


# --------------------------------------------------------------------------- tokenizer


def bytes_to_unicode():
    """GPT-2's byte <-> unicode table (as in transformers' tokenization_whisper)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(2**8):
        if b not in bs:
            bs.append(b)
            cs.append(2**8 + n)
            n += 1
    return dict(zip(bs, [chr(c) for c in cs]))


def _bpe(mergeable_ranks, token: bytes, max_rank=None):
    parts = [bytes([b]) for b in token]
    while True:
        min_idx = None
        min_rank = None
        for i, pair in enumerate(zip(parts[:-1], parts[1:])):
            rank = mergeable_ranks.get(pair[0] + pair[1])
            if rank is not None and (min_rank is None or rank < min_rank):
                min_idx = i
                min_rank = rank
        if min_rank is None or (max_rank is not None and min_rank >= max_rank):
            break
        parts = parts[:min_idx] + [parts[min_idx] + parts[min_idx + 1]] + parts[min_idx + 2:]
    return parts


def load_ranks(encoding_name: str):
    path = Path(whisper.__file__).parent / "assets" / f"{encoding_name}.tiktoken"
    ranks = {}
    for line in path.read_text().splitlines():
        if line:
            tok, rank = line.split()
            ranks[base64.b64decode(tok)] = int(rank)
    return ranks


def build_tokenizer(multilingual: bool, out_path: Path):
    """tokenizer.json the way convert_openai_to_hf.py builds it, but from the local tiktoken file."""
    encoding_name = "multilingual" if multilingual else "gpt2"
    ranks = load_ranks(encoding_name)
    assert sorted(ranks.values()) == list(range(len(ranks)))
    byte_encoder = bytes_to_unicode()

    def to_str(b: bytes) -> str:
        return "".join(byte_encoder[c] for c in b)

    vocab, merges = {}, []
    for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
        vocab[to_str(token)] = rank
        if len(token) == 1:
            continue
        merged = _bpe(ranks, token, max_rank=rank)
        if len(merged) == 2:
            merges.append((to_str(merged[0]), to_str(merged[1])))

    # ignore_merges=True: a pre-tokenized piece that is itself in the vocab maps to
    # that id directly, which is what tiktoken does.
    tok = Tokenizer(models.BPE(vocab=vocab, merges=merges, ignore_merges=True))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    tok.post_processor = processors.ByteLevel(add_prefix_space=False, trim_offsets=False)

    # special tokens, in whisper's id order: control + language tokens special,
    # timestamps not special (as convert_openai_to_hf.py adds them)
    enc = get_encoding(encoding_name)
    specials = sorted(enc._special_tokens.items(), key=lambda kv: kv[1])
    assert specials[0][1] == len(ranks)
    for content, idx in specials:
        is_ts = content.startswith("<|") and content[2:3].isdigit()
        if is_ts:
            tok.add_tokens([AddedToken(content, special=False, normalized=False)])
        else:
            tok.add_special_tokens([AddedToken(content, special=True, normalized=False)])
        assert tok.token_to_id(content) == idx, (content, tok.token_to_id(content), idx)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    tok.save(str(out_path), pretty=False)
    return dict(n_merges=len(merges), n_ranks=len(ranks), n_specials=len(specials))


TOKENIZER_TEST_TEXTS = [
    " hey fox close the youtube tabs",
    "hey fox close the youtube tabs",
    " hey fox",
    " Hey Fox! Close the YouTube tabs, please... 42 tabs? ",
    "  multiple   spaces\tand\nnewlines\n\n",
    " I'm sure they'll've done it; we're 100% ready -- OK?",
    " Émile a fêté l'été à Zürich, naïve café crème.",
    " Привет, лиса! 你好，狐狸。 こんにちは、キツネ。 ♪♪ ♫ ♬",
    " emoji 🦊🔥👍🏽 and symbols <<>> [[ ]] {{ }} (( ))",
    "0.00 1.5 3,000,000 1e-5 0x1F",
]


def check_tokenizer(path: Path, multilingual: bool) -> dict:
    hf = Tokenizer.from_file(str(path))
    tt = get_tokenizer(multilingual, language="en" if multilingual else None,
                       task="transcribe" if multilingual else None)
    texts = list(TOKENIZER_TEST_TEXTS)
    # plus a deterministic chunk of real-world English/code text
    src = (Path(whisper.__file__).parent / "decoding.py").read_text()
    # (chunks with "<|" are left out: tiktoken refuses special-token text by default)
    texts += [c for c in (src[i:i + 400] for i in range(0, min(len(src), 20000), 400)) if "<|" not in c]
    examples = {}
    for text in texts:
        a = tt.encode(text)
        b = hf.encode(text, add_special_tokens=False).ids
        c = hf.encode(text).ids
        assert a == b == c, (text, a, b, c)
        assert hf.decode(a, skip_special_tokens=False) == tt.decode(a), text
        if text in TOKENIZER_TEST_TEXTS[:3]:
            examples[text] = a
    # every special id decodes to its string
    for content, idx in tt.special_tokens.items():
        assert hf.id_to_token(idx) == content
        assert hf.decode([idx], skip_special_tokens=False) == content, (idx, content)
    n_vocab = hf.get_vocab_size(with_added_tokens=True)
    return dict(n_vocab=n_vocab, examples=examples, n_texts_checked=len(texts))


# --------------------------------------------------------------------------- weights


def sinusoids_openai(length, channels):
    from whisper.model import sinusoids
    return sinusoids(length, channels).numpy().astype(np.float32)


def sinusoids_candle(length, channels):
    """candle-transformers whisper::model::sinusoids, emulated in f32."""
    inc = np.float32(np.log(np.float32(10000.0))) / np.float32(channels // 2 - 1)
    inv = np.exp(np.arange(channels // 2, dtype=np.float32) * -inc).astype(np.float32)
    st = (np.arange(length, dtype=np.float32)[:, None] * inv[None, :]).astype(np.float32)
    return np.concatenate([np.sin(st), np.cos(st)], axis=1).astype(np.float32)


def f16(x) -> np.ndarray:
    return np.asarray(x).astype(np.float16).astype(np.float32)


def make_weights(spec) -> tuple[ModelDimensions, dict]:
    """Random openai-whisper state dict (float32 numpy, values already rounded to f16)."""
    init = {**INIT, **spec.get("init", {})}
    dims = ModelDimensions(**spec["dims"])
    template = Whisper(dims).state_dict()
    rng = np.random.default_rng(spec["seed"])
    multilingual = dims.n_vocab >= 51865
    eot = 50257 if multilingual else 50256
    sd = {}
    for key, t in template.items():
        shape = tuple(t.shape)
        if key == "encoder.positional_embedding":
            sd[key] = sinusoids_openai(*shape)  # fixed sinusoids, kept exact (f32)
            continue
        is_ln = key.startswith("encoder.ln_post.") or key.startswith("decoder.ln.") or "_ln." in key
        if key == "decoder.token_embedding.weight":
            w = rng.normal(0.0, init["token_embedding_std"], shape)
            w[eot] *= init["eot_row_gain"]
        elif key == "decoder.positional_embedding":
            w = rng.normal(0.0, init["text_pos_std"], shape)
        elif is_ln and key.endswith(".weight"):
            w = 1.0 + rng.normal(0.0, init["ln_weight_std"], shape)
        elif is_ln and key.endswith(".bias"):
            w = rng.normal(0.0, init["ln_bias_std"], shape)
        elif key.endswith(".bias"):
            w = rng.normal(0.0, init["bias_std"], shape)
        elif key.endswith(".weight"):
            fan_in = int(np.prod(shape[1:]))
            std = 1.0 / np.sqrt(fan_in)
            if key.endswith("query.weight") or key.endswith("key.weight"):
                std *= init["qk_gain"]
            if key.startswith("decoder.") and (key.endswith("attn.out.weight") or key.endswith("mlp.2.weight")):
                std *= init["dec_out_gain"]
            w = rng.normal(0.0, std, shape)
        else:
            raise KeyError(key)
        if key.startswith("decoder.ln."):
            w = w * init["final_ln_gain"]
        sd[key] = f16(w)

    # the <|nospeech|> row, from the model's own output at the sot position for silence
    no_speech = get_tokenizer(multilingual).no_speech
    model = Whisper(dims)
    model.load_state_dict({k: torch.from_numpy(v) for k, v in sd.items()}, strict=True)
    model.eval()
    with torch.no_grad():
        silence = whisper.log_mel_spectrogram(whisper.pad_or_trim(np.zeros(SAMPLE_RATE, np.float32)))
        enc = model.encoder(silence[None])
        dec = model.decoder
        sot = get_tokenizer(multilingual).sot
        x = dec.token_embedding(torch.tensor([[sot]])) + dec.positional_embedding[:1]
        for block in dec.blocks:
            x = block(x, enc, mask=dec.mask)
        h0 = dec.ln(x)[0, 0].numpy().astype(np.float64)
    logits = sd["decoder.token_embedding.weight"].astype(np.float64) @ h0
    logits[no_speech] = -np.inf
    u = h0 / np.linalg.norm(h0)
    scale = (logits.max() + init["nospeech_offset"]) / np.linalg.norm(h0)
    sd["decoder.token_embedding.weight"][no_speech] = f16(scale * u)
    return dims, sd


def hf_config(spec, dims: ModelDimensions) -> dict:
    eot = 50257 if spec["multilingual"] else 50256
    d = dims.n_text_state
    return {
        "_name_or_path": f"tab-whisperer/{spec['name']}",
        "architectures": ["WhisperForConditionalGeneration"],
        "model_type": "whisper",
        "activation_function": "gelu",
        "num_mel_bins": dims.n_mels,
        "max_source_positions": dims.n_audio_ctx,
        "d_model": d,
        "encoder_attention_heads": dims.n_audio_head,
        "encoder_layers": dims.n_audio_layer,
        "encoder_ffn_dim": 4 * d,
        "vocab_size": dims.n_vocab,
        "max_target_positions": dims.n_text_ctx,
        "decoder_attention_heads": dims.n_text_head,
        "decoder_layers": dims.n_text_layer,
        "decoder_ffn_dim": 4 * d,
        "num_hidden_layers": dims.n_audio_layer,
        "suppress_tokens": [],
        "begin_suppress_tokens": [220, eot],
        "bos_token_id": eot,
        "eos_token_id": eot,
        "pad_token_id": eot,
        "decoder_start_token_id": eot + 1,
        "scale_embedding": False,
        "tie_word_embeddings": True,
        "use_cache": True,
        "torch_dtype": "float16",
        "init_std": 0.02,
        "dropout": 0.0,
        "attention_dropout": 0.0,
        "activation_dropout": 0.0,
        "encoder_layerdrop": 0.0,
        "decoder_layerdrop": 0.0,
        "is_encoder_decoder": True,
    }


def save_model(spec, dims, sd) -> Path:
    mdir = MODELS_DIR / spec["name"]
    mdir.mkdir(parents=True, exist_ok=True)
    tensors = {}
    for key, arr in sd.items():
        # the encoder's sinusoids stay f32 (Candle recomputes them; HF loads them)
        dt = np.float32 if key == "encoder.positional_embedding" else np.float16
        tensors[openai_to_hf_key(key)] = np.ascontiguousarray(arr.astype(dt))
    assert len(set(tensors)) == len(sd)
    save_file(tensors, str(mdir / "model.safetensors"), metadata={"format": "pt"})
    (mdir / "config.json").write_text(json.dumps(hf_config(spec, dims), indent=2) + "\n")
    return mdir


def load_openai_model(mdir: Path, dims: ModelDimensions) -> Whisper:
    """Load model.safetensors into openai-whisper's Whisper: HF names mapped back, upcast to f32."""
    hf = load_file(str(mdir / "model.safetensors"))
    template = Whisper(dims)
    reverse = {openai_to_hf_key(k): k for k in template.state_dict()}
    assert len(reverse) == len(template.state_dict())
    sd = {reverse[k]: torch.from_numpy(v.astype(np.float32)) for k, v in hf.items()}
    template.load_state_dict(sd, strict=True)
    return template.float().eval()


# --------------------------------------------------------------------------- reference


def log_softmax(x: torch.Tensor) -> torch.Tensor:
    return F.log_softmax(x.float(), dim=-1)


def margin_of(logits: torch.Tensor) -> float:
    top = torch.topk(logits.float(), 2).values
    return float(top[0] - top[1])


def last_logits(model: Whisper, tokens: list[int], audio_features: torch.Tensor) -> torch.Tensor:
    """Full (cache-free) decoder forward; logits of every position (1, n, vocab)."""
    return model.decoder(torch.tensor([tokens]), audio_features)


def last_position_logits(model: Whisper, tokens: list[int], audio_features: torch.Tensor) -> torch.Tensor:
    """TextDecoder.forward without kv cache, projecting only the last position (vocab,)."""
    dec = model.decoder
    t = torch.tensor([tokens])
    x = dec.token_embedding(t) + dec.positional_embedding[: t.shape[-1]]
    for block in dec.blocks:
        x = block(x, audio_features, mask=dec.mask)
    x = dec.ln(x)
    return (x[0, -1] @ dec.token_embedding.weight.T).float()


def independent_greedy(model, audio_features, initial, sample_len, suppress, blank, eot):
    """Own greedy loop (no kv cache) with the recorded suppress lists, for cross-checking."""
    tokens = list(initial)
    out, lps = [], []
    for _ in range(sample_len):
        logits = last_position_logits(model, tokens, audio_features)
        if len(tokens) == len(initial):
            logits[blank] = -np.inf
        logits[suppress] = -np.inf
        nxt = int(torch.argmax(logits))
        lps.append(float(log_softmax(logits)[nxt]))
        tokens.append(nxt)
        if nxt == eot:
            break
        out.append(nxt)
    return out, lps


def run_decode(model: Whisper, mel: torch.Tensor, options: DecodingOptions) -> dict:
    """whisper.decode's own DecodingTask, observed step by step."""
    task = DecodingTask(model, options)
    steps = []
    orig_update = task.decoder.update

    def update(tokens, logits, sum_logprobs):  # logits here are already filtered
        steps.append(logits[0].detach().clone())
        return orig_update(tokens, logits, sum_logprobs)

    task.decoder.update = update
    res = task.run(mel[None])[0]
    ref = whisper.decode(model, mel, options)  # the public API, for equality
    assert ref.tokens == res.tokens and ref.text == res.text, (ref.tokens, res.tokens)
    assert ref.avg_logprob == res.avg_logprob and ref.no_speech_prob == res.no_speech_prob

    tok = task.tokenizer
    eot = tok.eot
    chosen, lps, margins = [], [], []
    for lg in steps:
        nxt = int(torch.argmax(lg))
        chosen.append(nxt)
        lps.append(float(log_softmax(lg)[nxt]))
        margins.append(margin_of(lg))
    stopped_by = "eot" if chosen and chosen[-1] == eot else "sample_len"
    gen = chosen[:-1] if stopped_by == "eot" else chosen
    assert gen == list(res.tokens), (gen, res.tokens)
    assert len(steps) <= task.sample_len
    if stopped_by == "sample_len":
        assert len(steps) == task.sample_len
    sum_lp = float(sum(lps))
    assert abs(sum_lp / (len(res.tokens) + 1) - res.avg_logprob) < 1e-4, (sum_lp, res.avg_logprob)

    suppress = list(task._get_suppress_tokens()) if options.suppress_tokens else []
    blank = tok.encode(" ") + [eot]
    audio_features = model.encoder(mel[None])
    own, own_lps = independent_greedy(model, audio_features, list(task.initial_tokens), task.sample_len,
                                      suppress, blank, eot)
    assert own == list(res.tokens), ("independent greedy differs", own, res.tokens)
    assert max(abs(a - b) for a, b in zip(own_lps, lps)) < 1e-4

    return dict(
        task=task,
        result=res,
        record=dict(
            initial_tokens=list(task.initial_tokens),
            sample_begin=task.sample_begin,
            sot_index=task.sot_index,
            sample_len=task.sample_len,
            n_ctx=task.n_ctx,
            suppress_tokens=suppress,
            suppress_blank_tokens=blank,
            tokens=list(res.tokens),
            text=res.text,
            text_unstripped=tok.decode(list(res.tokens)),
            language=res.language,
            avg_logprob=float(res.avg_logprob),
            sum_logprob=sum_lp,
            no_speech_prob=float(res.no_speech_prob),
            compression_ratio=float(res.compression_ratio),
            token_logprobs=lps[: len(res.tokens)],
            eot_logprob=lps[-1] if stopped_by == "eot" else None,
            stopped_by=stopped_by,
            n_steps=len(steps),
            step_margins=margins,
            min_margin=min(margins),
        ),
    )


def forced_phrase(model, audio_features, initial, phrase_tokens) -> dict:
    logits = last_logits(model, list(initial) + list(phrase_tokens), audio_features)[0]
    lp = log_softmax(logits)
    start = len(initial) - 1
    per = [float(lp[start + i, t]) for i, t in enumerate(phrase_tokens)]
    return dict(text=WAKE_PHRASE, tokens=list(phrase_tokens), initial_tokens=list(initial),
                token_logprobs=per, sum_logprob=float(sum(per)),
                note=("teacher-forced after initial_tokens in one cache-free decoder pass; raw log_softmax of the "
                      "UNFILTERED logits (no SuppressBlank / SuppressTokens); token_logprobs[i] is read at position "
                      "len(initial_tokens)-1+i"))


@contextlib.contextmanager
def candle_variant(model: Whisper):
    """Tanh-approximate GELU and Candle's f32 sinusoids, i.e. what candle-transformers'
    stock whisper model computes, for the diagnostics only."""
    orig_gelu = F.gelu
    orig_pe = model.encoder.positional_embedding.clone()

    def gelu_tanh(x, approximate="none"):
        return orig_gelu(x, approximate="tanh")

    F.gelu = gelu_tanh
    model.encoder.positional_embedding.copy_(torch.from_numpy(sinusoids_candle(*orig_pe.shape)))
    try:
        yield
    finally:
        F.gelu = orig_gelu
        model.encoder.positional_embedding.copy_(orig_pe)


# --------------------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--skip-hf-check", action="store_true", help="skip the transformers cross-check")
    args = ap.parse_args()

    torch.manual_seed(0)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)

    for d in (MODELS_DIR, OUT_DIR):
        if d.exists():
            shutil.rmtree(d)
    OUT_DIR.mkdir(parents=True)

    audio_files = make_audio()

    # mel filters and mels (model independent)
    filters = np.load(Path(whisper.__file__).parent / "assets" / "mel_filters.npz")["mel_80"].astype(np.float32)
    assert filters.shape == (80, 201)
    np.save(OUT_DIR / "mel_filters.npy", filters)
    mels, audios = {}, {}
    for name in REF_AUDIOS:
        audio = read_wav_int16(AUDIO_DIR / f"{name}.wav")
        audios[name] = audio
        mel = whisper.log_mel_spectrogram(whisper.pad_or_trim(audio))
        assert mel.shape == (80, 3000) and mel.dtype == torch.float32
        mels[name] = mel
        np.save(OUT_DIR / f"mel-{name}.npy", mel.numpy())

    manifest = dict(
        generator="generate.py",
        versions=dict(
            python=sys.version.split()[0],
            openai_whisper=whisper.__version__,
            torch=torch.__version__,
            numpy=np.__version__,
            tiktoken=__import__("tiktoken").__version__,
            tokenizers=__import__("tokenizers").__version__,
            espeak_ng=tool_version(["espeak-ng", "--version"]),
            sox=tool_version(["sox", "--version"]),
        ),
        init_defaults=INIT,
        min_margin_required=MIN_MARGIN,
        audio=audio_files,
        mel=dict(filters="outputs/mel_filters.npy",
                 recipe="whisper.log_mel_spectrogram(whisper.pad_or_trim(int16/32768.0)), n_mels=80, 80x3000 float32",
                 files={n: f"outputs/mel-{n}.npy" for n in REF_AUDIOS}),
        models={},
        diagnostics={},
    )

    summary = []
    for spec in MODEL_SPECS:
        name = spec["name"]
        dims, sd = make_weights(spec)
        mdir = save_model(spec, dims, sd)
        tinfo = build_tokenizer(spec["multilingual"], mdir / "tokenizer.json")
        tcheck = check_tokenizer(mdir / "tokenizer.json", spec["multilingual"])
        assert tcheck["n_vocab"] == dims.n_vocab, (tcheck["n_vocab"], dims.n_vocab)

        model = load_openai_model(mdir, dims)
        assert model.is_multilingual == spec["multilingual"]
        mout = OUT_DIR / name
        mout.mkdir(parents=True)

        tok = get_tokenizer(model.is_multilingual, num_languages=model.num_languages,
                            language="en", task="transcribe")
        base = DecodingOptions(language="en", task="transcribe", temperature=0.0,
                               without_timestamps=True, fp16=False)
        phrase_tokens = tok.encode(WAKE_PHRASE)

        cases = {}
        with torch.no_grad():
            for aname in REF_AUDIOS:
                mel = mels[aname]
                enc = model.encoder(mel[None])
                np.save(mout / f"{aname}.encoder.npy", enc[0].numpy().astype(np.float32))
                dec = run_decode(model, mel, base)
                rec = dec["record"]
                init = rec["initial_tokens"]
                first = last_logits(model, init, enc)[0, -1]
                np.save(mout / f"{aname}.logits.npy", first.numpy().astype(np.float32))
                top5 = torch.topk(first, 5)
                rec = dict(
                    model=name,
                    audio=aname,
                    audio_file=audio_files[aname]["file"],
                    n_samples=int(len(audios[aname])),
                    options=dict(language="en", task="transcribe", temperature=0.0, without_timestamps=True,
                                 fp16=False, suppress_tokens="-1", suppress_blank=True, sample_len=None,
                                 prompt=None, beam_size=None, best_of=None),
                    files=dict(mel=f"outputs/mel-{aname}.npy", encoder=rel(mout / f"{aname}.encoder.npy"),
                               first_step_logits=rel(mout / f"{aname}.logits.npy")),
                    first_step_logits_note="raw (unfiltered) logits at the last position of initial_tokens",
                    first_step_top5=dict(ids=top5.indices.tolist(), logits=top5.values.tolist()),
                    **rec,
                    wake_phrase=forced_phrase(model, enc, init, phrase_tokens),
                )
                (mout / f"{aname}.json").write_text(json.dumps(rec, indent=1) + "\n")
                cases[aname] = rec
                summary.append((name, aname, rec))

            # with a prompt, on speech
            popts = DecodingOptions(language="en", task="transcribe", temperature=0.0,
                                    without_timestamps=True, fp16=False, prompt=PROMPT)
            dec = run_decode(model, mels["speech"], popts)
            prec = dec["record"]
            prec = dict(model=name, audio="speech", audio_file=audio_files["speech"]["file"],
                        options=dict(language="en", task="transcribe", temperature=0.0, without_timestamps=True,
                                     fp16=False, suppress_tokens="-1", suppress_blank=True, sample_len=None,
                                     prompt=PROMPT, beam_size=None, best_of=None),
                        prompt_tokens=tok.encode(" " + PROMPT.strip()),
                        prompt_note='initial_tokens = [<|startofprev|>] + encode(" " + prompt.strip()) + sot sequence; '
                                    "no_speech_prob is read at sot_index",
                        **prec)
            (mout / "prompt-speech.json").write_text(json.dumps(prec, indent=1) + "\n")
            summary.append((name, "speech+prompt", prec))

            # diagnostics: what candle-transformers' stock model (tanh GELU, own sinusoids) would do
            diag = {}
            for aname in REF_AUDIOS:
                mel = mels[aname]
                enc_ref = torch.from_numpy(np.load(mout / f"{aname}.encoder.npy"))
                with candle_variant(model):
                    enc_c = model.encoder(mel[None])[0]
                    res_c = whisper.decode(model, mel, base)
                    first_c = last_logits(model, cases[aname]["initial_tokens"], enc_c[None])[0, -1]
                first_ref = torch.from_numpy(np.load(mout / f"{aname}.logits.npy"))
                diag[aname] = dict(
                    encoder_max_abs_diff=float((enc_c - enc_ref).abs().max()),
                    first_logits_max_abs_diff=float((first_c - first_ref).abs().max()),
                    same_tokens=list(res_c.tokens) == cases[aname]["tokens"],
                )
            manifest["diagnostics"][name] = diag

        # optional: transformers loads the folder and agrees
        hf_check = None
        if not args.skip_hf_check:
            hf_check = hf_cross_check(mdir, mels, cases)

        pe = model.encoder.positional_embedding.numpy()
        manifest["models"][name] = dict(
            dir=rel(mdir),
            seed=spec["seed"],
            init={**INIT, **spec.get("init", {})},
            dims=spec["dims"],
            multilingual=spec["multilingual"],
            num_languages=model.num_languages,
            files={f: dict(bytes=(mdir / f).stat().st_size, sha256=sha256(mdir / f))
                   for f in ("config.json", "tokenizer.json", "model.safetensors")},
            tokenizer=dict(**tinfo, **{k: v for k, v in tcheck.items()}),
            special_ids=dict(sorted(((k, v) for k, v in tok.special_tokens.items() if not k[2:3].isdigit()),
                                    key=lambda kv: kv[1])) | {"<|0.00|>": tok.timestamp_begin},
            sot_sequence_including_notimestamps=list(tok.sot_sequence_including_notimestamps),
            hf_cross_check=hf_check,
            candle_sinusoids_max_abs_diff=float(np.abs(sinusoids_candle(*pe.shape) - pe).max()),
        )

    # tokenizer.json decodes every result to openai-whisper's text
    for spec in MODEL_SPECS:
        hf = Tokenizer.from_file(str(MODELS_DIR / spec["name"] / "tokenizer.json"))
        ts_begin = get_tokenizer(spec["multilingual"]).timestamp_begin
        for m, a, r in summary:
            if m == spec["name"]:
                ids = [t for t in r["tokens"] if t < ts_begin]
                raw = hf.decode(ids, skip_special_tokens=False)
                assert raw == r["text_unstripped"] and raw.strip() == r["text"], (m, a, raw, r["text"])

    # liveness checks on the set of cases
    lens = [len(r["tokens"]) for _, _, r in summary]
    assert max(lens) >= 3, f"no case decodes several tokens: {lens}"
    assert all(r["min_margin"] >= MIN_MARGIN for _, _, r in summary), \
        [(m, a, r["min_margin"]) for m, a, r in summary]
    manifest["summary"] = [
        dict(model=m, case=a, n_tokens=len(r["tokens"]), stopped_by=r["stopped_by"], text=r["text"],
             min_margin=r["min_margin"], avg_logprob=r["avg_logprob"], no_speech_prob=r["no_speech_prob"])
        for m, a, r in summary
    ]
    (OUT_DIR / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")

    # summary table
    print()
    print(f"{'model':<16} {'case':<14} {'n':>4} {'stop':<10} {'min margin':>10}  text")
    for m, a, r in summary:
        text = r["text"] if len(r["text"]) <= 60 else r["text"][:57] + "..."
        print(f"{m:<16} {a:<14} {len(r['tokens']):>4} {r['stopped_by']:<10} {r['min_margin']:>10.4f}  {text!r}")
    print()
    for m, d in manifest["diagnostics"].items():
        for a, v in d.items():
            print(f"candle-variant {m:<16} {a:<7} enc diff {v['encoder_max_abs_diff']:.2e} "
                  f"logits diff {v['first_logits_max_abs_diff']:.2e} same tokens {v['same_tokens']}")
    total = sum(p.stat().st_size for p in HERE.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    print(f"\ntotal size of {HERE.name}/ (generate.py, README.md, audio, models, outputs): {total / 1e6:.2f} MB")
    for sub in ("audio", "models", "outputs"):
        s = sum(p.stat().st_size for p in (HERE / sub).rglob("*") if p.is_file())
        print(f"  {sub + '/':<9} {s / 1e6:6.2f} MB")


def hf_cross_check(mdir: Path, mels: dict, cases: dict):
    try:
        from transformers import WhisperForConditionalGeneration
    except Exception as e:  # noqa: BLE001
        return f"skipped: {e}"
    import logging
    logging.getLogger("transformers").setLevel(logging.ERROR)
    m = WhisperForConditionalGeneration.from_pretrained(str(mdir), dtype=torch.float32,
                                                        attn_implementation="eager").eval()
    out = {}
    with torch.no_grad():
        for aname, rec in cases.items():
            enc = m.model.encoder(mels[aname][None]).last_hidden_state[0]
            ref = torch.from_numpy(np.load(HERE / rec["files"]["encoder"]))
            ids = torch.tensor([rec["initial_tokens"]])
            logits = m(encoder_outputs=(enc[None],), decoder_input_ids=ids).logits[0, -1]
            lref = torch.from_numpy(np.load(HERE / rec["files"]["first_step_logits"]))
            out[aname] = dict(encoder_max_abs_diff=float((enc - ref).abs().max()),
                              first_logits_max_abs_diff=float((logits - lref).abs().max()))
            assert out[aname]["encoder_max_abs_diff"] < 1e-3 and out[aname]["first_logits_max_abs_diff"] < 1e-2, out
    return out


if __name__ == "__main__":
    main()
