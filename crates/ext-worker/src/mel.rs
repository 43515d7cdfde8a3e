//! Log-mel spectrogram exactly as openai-whisper computes it
//! (`whisper.audio.log_mel_spectrogram(pad_or_trim(audio))`):
//! pad or trim to 30 s, STFT with n_fft 400 and hop 160 over a periodic Hann
//! window, centered with reflect padding, |X|², the last frame dropped
//! (3001 → 3000), librosa's Slaney mel filters, log10 with a 1e-10 floor,
//! clamped to (max − 8), then (x + 4) / 4.
//!
//! Candle's `pcm_to_mel` differs from this by up to 1.78 (no centering,
//! doubled bins, other padding), which changes what the model hears.

use rustfft::{num_complex::Complex32, FftPlanner};
use std::sync::Arc;

pub const SAMPLE_RATE: usize = 16_000;
pub const N_FFT: usize = 400;
pub const HOP_LENGTH: usize = 160;
/// 30 s of audio, what the model was trained on.
pub const N_SAMPLES: usize = 30 * SAMPLE_RATE;
/// Mel frames in 30 s.
pub const N_FRAMES: usize = N_SAMPLES / HOP_LENGTH;
const N_BINS: usize = N_FFT / 2 + 1;

/// One mel filter: its first FFT bin and its nonzero weights. Each Slaney
/// filter spans a handful of bins, so applying them sparsely is ~20x less
/// work than the dense 80×201 product.
struct Filter {
    start: usize,
    weights: Vec<f32>,
}

/// Computes log-mel spectrograms for one number of mel bins (80 or 128).
pub struct MelSpectrogram {
    n_mels: usize,
    filters: Vec<Filter>,
    window: Vec<f32>,
    fft: Arc<dyn rustfft::Fft<f32>>,
}

impl MelSpectrogram {
    pub fn new(n_mels: usize) -> Self {
        let dense = mel_filters(n_mels);
        let filters = dense
            .chunks(N_BINS)
            .map(|row| {
                let start = row.iter().position(|&w| w != 0.0).unwrap_or(0);
                let end = row.iter().rposition(|&w| w != 0.0).map_or(start, |e| e + 1);
                Filter {
                    start,
                    weights: row[start..end].to_vec(),
                }
            })
            .collect();
        // Periodic Hann, as torch.hann_window(400).
        let window = (0..N_FFT)
            .map(|n| {
                let phase = 2.0 * std::f64::consts::PI * n as f64 / N_FFT as f64;
                (0.5 - 0.5 * phase.cos()) as f32
            })
            .collect();
        let fft = FftPlanner::new().plan_fft_forward(N_FFT);
        Self {
            n_mels,
            filters,
            window,
            fft,
        }
    }

    /// The log-mel of `audio` (16 kHz mono) as if padded or trimmed to 30 s,
    /// but only its first `n_frames` frames (at most 3000), row-major
    /// `[n_mels, n_frames]`. With `n_frames = N_FRAMES` this is the
    /// original's output; fewer frames give exactly its first columns,
    /// except that the (max − 8) floor then uses the max over those frames,
    /// which is the same max whenever the dropped frames are silence.
    pub fn compute(&self, audio: &[f32], n_frames: usize) -> Vec<f32> {
        let n_frames = n_frames.min(N_FRAMES);
        let audio = &audio[..audio.len().min(N_SAMPLES)];
        let mut power = vec![0f32; n_frames * N_BINS];
        let mut buffer = vec![Complex32::default(); N_FFT];
        let mut scratch = vec![Complex32::default(); self.fft.get_inplace_scratch_len()];
        for (frame, out) in power.chunks_mut(N_BINS).enumerate() {
            let first = frame as isize * HOP_LENGTH as isize - (N_FFT / 2) as isize;
            for (i, (b, w)) in buffer.iter_mut().zip(&self.window).enumerate() {
                *b = Complex32::new(padded_sample(audio, first + i as isize) * w, 0.0);
            }
            self.fft.process_with_scratch(&mut buffer, &mut scratch);
            for (o, x) in out.iter_mut().zip(&buffer) {
                *o = x.norm_sqr();
            }
        }
        let mut mel = vec![0f32; self.n_mels * n_frames];
        for (m, filter) in self.filters.iter().enumerate() {
            let row = &mut mel[m * n_frames..(m + 1) * n_frames];
            for (frame, out) in row.iter_mut().enumerate() {
                let bins = &power[frame * N_BINS + filter.start..][..filter.weights.len()];
                let energy: f32 = bins.iter().zip(&filter.weights).map(|(p, w)| p * w).sum();
                *out = energy.max(1e-10).log10();
            }
        }
        let max = mel.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        for x in &mut mel {
            *x = (x.max(max - 8.0) + 4.0) / 4.0;
        }
        mel
    }
}

/// Sample `i` of the audio zero-padded to 30 s, then reflect-padded by
/// n_fft/2 on both sides (torch.stft's `center=True`).
fn padded_sample(audio: &[f32], i: isize) -> f32 {
    let n = N_SAMPLES as isize;
    let i = if i < 0 {
        -i
    } else if i >= n {
        2 * (n - 1) - i
    } else {
        i
    };
    audio.get(i as usize).copied().unwrap_or(0.0)
}

/// librosa.filters.mel(sr=16000, n_fft=400, n_mels, htk=False,
/// norm="slaney") as openai-whisper's `mel_filters.npz` holds it, row-major
/// `[n_mels, 201]`. Computed in f64 and rounded once, as librosa does.
pub fn mel_filters(n_mels: usize) -> Vec<f32> {
    let fft_freqs: Vec<f64> = (0..N_BINS)
        .map(|k| k as f64 * SAMPLE_RATE as f64 / N_FFT as f64)
        .collect();
    let (low, high) = (hz_to_mel(0.0), hz_to_mel(SAMPLE_RATE as f64 / 2.0));
    let mel_freqs: Vec<f64> = (0..n_mels + 2)
        .map(|i| mel_to_hz(low + (high - low) * i as f64 / (n_mels + 1) as f64))
        .collect();
    let mut weights = vec![0f32; n_mels * N_BINS];
    for m in 0..n_mels {
        let (left, center, right) = (mel_freqs[m], mel_freqs[m + 1], mel_freqs[m + 2]);
        let norm = 2.0 / (right - left);
        for (k, &f) in fft_freqs.iter().enumerate() {
            let lower = (f - left) / (center - left);
            let upper = (right - f) / (right - center);
            weights[m * N_BINS + k] = (lower.min(upper).max(0.0) * norm) as f32;
        }
    }
    weights
}

// The Slaney mel scale: linear below 1 kHz, logarithmic above.
const F_SP: f64 = 200.0 / 3.0;
const MIN_LOG_HZ: f64 = 1000.0;
const MIN_LOG_MEL: f64 = MIN_LOG_HZ / F_SP;

fn log_step() -> f64 {
    6.4f64.ln() / 27.0
}

fn hz_to_mel(hz: f64) -> f64 {
    if hz >= MIN_LOG_HZ {
        MIN_LOG_MEL + (hz / MIN_LOG_HZ).ln() / log_step()
    } else {
        hz / F_SP
    }
}

fn mel_to_hz(mel: f64) -> f64 {
    if mel >= MIN_LOG_MEL {
        MIN_LOG_HZ * (log_step() * (mel - MIN_LOG_MEL)).exp()
    } else {
        mel * F_SP
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn silence_is_flat_at_the_floor() {
        let mel = MelSpectrogram::new(80).compute(&[0.0; 16_000], N_FRAMES);
        assert_eq!(mel.len(), 80 * N_FRAMES);
        assert!(mel.iter().all(|&x| x == -1.5), "log10(1e-10) = -10 → -1.5");
    }

    #[test]
    fn a_tone_lights_the_mel_bin_of_its_frequency() {
        let tone: Vec<f32> = (0..16_000)
            .map(|i| (2.0 * std::f32::consts::PI * 1000.0 * i as f32 / 16_000.0).sin())
            .collect();
        let n_frames = 100;
        let mel = MelSpectrogram::new(80).compute(&tone, n_frames);
        let frame = 50;
        let loudest = (0..80)
            .max_by(|&a, &b| mel[a * n_frames + frame].total_cmp(&mel[b * n_frames + frame]))
            .unwrap();
        // 1 kHz is 15 on the Slaney scale; bin centers are 45.2/81 apart.
        let centers: Vec<f64> = (1..=80)
            .map(|m| hz_to_mel(8000.0) * m as f64 / 81.0)
            .collect();
        let nearest = (0..80)
            .min_by(|&a, &b| {
                (centers[a] - 15.0)
                    .abs()
                    .total_cmp(&(centers[b] - 15.0).abs())
            })
            .unwrap();
        assert_eq!(loudest, nearest);
    }

    #[test]
    fn fewer_frames_are_the_first_columns_of_all_frames() {
        let noise: Vec<f32> = (0..8_000u32)
            .map(|i| ((i.wrapping_mul(2_654_435_761) >> 16) as f32 / 65_536.0) - 0.5)
            .collect();
        let spec = MelSpectrogram::new(80);
        let full = spec.compute(&noise, N_FRAMES);
        let short = spec.compute(&noise, 80);
        for m in 0..80 {
            assert_eq!(
                &short[m * 80..(m + 1) * 80],
                &full[m * N_FRAMES..m * N_FRAMES + 80]
            );
        }
    }

    #[test]
    fn scale_round_trips() {
        for hz in [0.0, 300.0, 999.0, 1000.0, 4321.0, 8000.0] {
            assert!((mel_to_hz(hz_to_mel(hz)) - hz).abs() < 1e-9);
        }
    }
}
