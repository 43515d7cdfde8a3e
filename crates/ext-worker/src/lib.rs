//! The speech worker: audio front end (resampling, voice activity
//! detection, utterances) and Whisper on Candle. Nothing ships from here
//! yet; the Whisper engine issue fills it in, and the .xpi does not start a
//! worker until then.
