//! Audio in: WAV files of any sample format, rate and channel count, mixed
//! to mono and resampled to Whisper's 16 kHz with an anti-aliased FFT
//! resampler (rubato).

use crate::error::{Error, Result};
use crate::mel::SAMPLE_RATE;
use rubato::{FftFixedIn, Resampler as _};
use std::io::Cursor;

/// Mono samples at some rate.
#[derive(Debug, Clone, PartialEq)]
pub struct Audio {
    pub samples: Vec<f32>,
    pub rate: u32,
}

/// Decodes a WAV (8/16/24/32-bit integer or 32-bit float PCM), averaging
/// its channels.
pub fn read_wav(bytes: &[u8]) -> Result<Audio> {
    let reader = hound::WavReader::new(Cursor::new(bytes))
        .map_err(|e| Error::audio(format!("not a readable WAV file: {e}")))?;
    let spec = reader.spec();
    let channels = spec.channels as usize;
    if channels == 0 || spec.sample_rate == 0 {
        return Err(Error::audio("the WAV file has no channels or no rate"));
    }
    let interleaved: Vec<f32> = match spec.sample_format {
        hound::SampleFormat::Float => reader
            .into_samples::<f32>()
            .collect::<std::result::Result<_, _>>(),
        hound::SampleFormat::Int => {
            let scale = 1.0 / (1u64 << (spec.bits_per_sample - 1)) as f32;
            reader
                .into_samples::<i32>()
                .map(|s| s.map(|s| s as f32 * scale))
                .collect::<std::result::Result<_, _>>()
        }
    }
    .map_err(|e| Error::audio(format!("the WAV file is truncated or corrupt: {e}")))?;
    let samples = interleaved
        .chunks(channels)
        .map(|frame| frame.iter().sum::<f32>() / channels as f32)
        .collect();
    Ok(Audio {
        samples,
        rate: spec.sample_rate,
    })
}

/// Checks that samples can be transcribed: some audio, all finite.
pub fn validate(samples: &[f32]) -> Result<()> {
    if samples.is_empty() {
        return Err(Error::audio("there is no audio"));
    }
    if let Some(i) = samples.iter().position(|s| !s.is_finite()) {
        return Err(Error::audio(format!(
            "sample {i} is not a number ({})",
            samples[i]
        )));
    }
    Ok(())
}

/// Streams audio from one rate to 16 kHz. Feed blocks of any size as they
/// arrive; output comes in the resampler's chunks, delay removed.
pub struct Resampler {
    inner: Option<FftFixedIn<f32>>,
    pending: Vec<f32>,
    /// Output samples still to drop (the filter's delay).
    skip: usize,
    fed: usize,
    produced: usize,
    ratio: f64,
}

impl Resampler {
    pub fn new(rate: u32) -> Result<Self> {
        if rate == 0 {
            return Err(Error::audio("a sample rate of 0"));
        }
        let inner = if rate as usize == SAMPLE_RATE {
            None
        } else {
            let r = FftFixedIn::new(rate as usize, SAMPLE_RATE, 1024, 2, 1)
                .map_err(|e| Error::audio(format!("cannot resample from {rate} Hz: {e}")))?;
            Some(r)
        };
        let skip = inner.as_ref().map_or(0, |r| r.output_delay());
        Ok(Self {
            inner,
            pending: Vec::new(),
            skip,
            fed: 0,
            produced: 0,
            ratio: SAMPLE_RATE as f64 / rate as f64,
        })
    }

    /// Resamples what it can of `block`, appending 16 kHz samples to `out`.
    pub fn push(&mut self, block: &[f32], out: &mut Vec<f32>) {
        self.fed += block.len();
        let Some(inner) = self.inner.as_mut() else {
            out.extend_from_slice(block);
            self.produced += block.len();
            return;
        };
        // A NaN or infinity from a broken source is silence: rubato's FFT
        // panics on it (found by `make fuzz`). Unresampled audio keeps it
        // for the detector, which does the same.
        self.pending
            .extend(block.iter().map(|&s| if s.is_finite() { s } else { 0.0 }));
        let mut start = 0;
        while self.pending.len() - start >= inner.input_frames_next() {
            let n = inner.input_frames_next();
            let chunk = &self.pending[start..start + n];
            if let Ok(mut result) = inner.process(&[chunk], None) {
                let produced = std::mem::take(&mut result[0]);
                Self::emit(&mut self.skip, &mut self.produced, produced, out);
            }
            start += n;
        }
        self.pending.drain(..start);
    }

    /// Flushes the tail so the output has the length the input implies.
    pub fn finish(&mut self, out: &mut Vec<f32>) {
        let expected = (self.fed as f64 * self.ratio).round() as usize;
        let Some(inner) = self.inner.as_mut() else {
            return;
        };
        let mut pending = std::mem::take(&mut self.pending);
        while self.produced < expected {
            let input = if pending.is_empty() {
                None
            } else {
                Some(vec![std::mem::take(&mut pending)])
            };
            match inner.process_partial(input.as_deref(), None) {
                Ok(mut result) => {
                    let produced = std::mem::take(&mut result[0]);
                    Self::emit(&mut self.skip, &mut self.produced, produced, out);
                }
                Err(_) => break,
            }
        }
        let excess = self.produced.saturating_sub(expected);
        out.truncate(out.len().saturating_sub(excess));
        self.produced -= excess;
    }

    fn emit(skip: &mut usize, produced: &mut usize, samples: Vec<f32>, out: &mut Vec<f32>) {
        let dropped = (*skip).min(samples.len());
        *skip -= dropped;
        out.extend_from_slice(&samples[dropped..]);
        *produced += samples.len() - dropped;
    }
}

/// The whole of `audio` at 16 kHz.
pub fn to_16k(audio: &Audio) -> Result<Vec<f32>> {
    let mut resampler = Resampler::new(audio.rate)?;
    let mut out = Vec::with_capacity((audio.samples.len() as f64 * resampler.ratio) as usize + 1);
    resampler.push(&audio.samples, &mut out);
    resampler.finish(&mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wav(
        spec: hound::WavSpec,
        write: impl Fn(&mut hound::WavWriter<Cursor<&mut Vec<u8>>>),
    ) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut writer = hound::WavWriter::new(Cursor::new(&mut bytes), spec).unwrap();
        write(&mut writer);
        writer.finalize().unwrap();
        bytes
    }

    fn tone(rate: u32, hz: f32, seconds: f32) -> Vec<f32> {
        (0..(rate as f32 * seconds) as usize)
            .map(|i| (2.0 * std::f32::consts::PI * hz * i as f32 / rate as f32).sin() * 0.5)
            .collect()
    }

    /// Energy of `samples` at `hz` (a single DFT bin).
    fn energy_at(samples: &[f32], rate: u32, hz: f32) -> f32 {
        let (mut re, mut im) = (0f32, 0f32);
        for (i, s) in samples.iter().enumerate() {
            let phase = 2.0 * std::f32::consts::PI * hz * i as f32 / rate as f32;
            re += s * phase.cos();
            im += s * phase.sin();
        }
        (re * re + im * im).sqrt() / samples.len() as f32
    }

    #[test]
    fn stereo_16_bit_is_mixed_to_mono() {
        let spec = hound::WavSpec {
            channels: 2,
            sample_rate: 16_000,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let bytes = wav(spec, |w| {
            for _ in 0..10 {
                w.write_sample(16_384i16).unwrap();
                w.write_sample(0i16).unwrap();
            }
        });
        let audio = read_wav(&bytes).unwrap();
        assert_eq!(audio.rate, 16_000);
        assert_eq!(audio.samples, vec![0.25; 10]);
    }

    #[test]
    fn float_wav_reads_as_is() {
        let spec = hound::WavSpec {
            channels: 1,
            sample_rate: 8_000,
            bits_per_sample: 32,
            sample_format: hound::SampleFormat::Float,
        };
        let bytes = wav(spec, |w| {
            for s in [0.5f32, -0.25, 1.0] {
                w.write_sample(s).unwrap();
            }
        });
        assert_eq!(read_wav(&bytes).unwrap().samples, vec![0.5, -0.25, 1.0]);
    }

    #[test]
    fn not_a_wav_is_a_clear_error() {
        for bytes in [&b""[..], b"RIFF", b"ID3\x04 this is an mp3"] {
            let e = read_wav(bytes).unwrap_err();
            assert_eq!(e.code, crate::error::ErrorCode::AudioInvalid, "{e}");
        }
    }

    #[test]
    fn nan_and_empty_audio_are_refused() {
        assert!(validate(&[]).is_err());
        assert!(validate(&[0.0, f32::NAN])
            .unwrap_err()
            .message
            .contains("sample 1"));
        assert!(validate(&[0.0, 0.1]).is_ok());
    }

    #[test]
    fn resampling_keeps_length_and_tone_and_removes_what_cannot_be_heard() {
        for rate in [44_100u32, 48_000, 8_000, 22_050] {
            // 440 Hz stays; 12 kHz (above 8 kHz Nyquist) must not alias in.
            let mut input = tone(rate, 440.0, 1.0);
            if rate > 24_000 {
                for (x, y) in input.iter_mut().zip(tone(rate, 12_000.0, 1.0)) {
                    *x += y;
                }
            }
            let out = to_16k(&Audio {
                samples: input,
                rate,
            })
            .unwrap();
            assert_eq!(out.len(), 16_000, "{rate} Hz");
            let middle = &out[2_000..14_000];
            let kept = energy_at(middle, 16_000, 440.0);
            assert!((kept - 0.25).abs() < 0.02, "{rate} Hz: 440 Hz at {kept}");
            // 12 kHz would alias to 4 kHz at 16 kHz.
            let alias = energy_at(middle, 16_000, 4_000.0);
            assert!(alias < 0.005, "{rate} Hz: alias at {alias}");
        }
    }

    #[test]
    fn streaming_in_odd_blocks_equals_one_go() {
        let input = tone(48_000, 300.0, 0.5);
        let whole = to_16k(&Audio {
            samples: input.clone(),
            rate: 48_000,
        })
        .unwrap();
        let mut resampler = Resampler::new(48_000).unwrap();
        let mut streamed = Vec::new();
        for block in input.chunks(128) {
            resampler.push(block, &mut streamed);
        }
        resampler.finish(&mut streamed);
        assert_eq!(streamed, whole);
    }
}
