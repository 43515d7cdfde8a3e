// Copies microphone samples (channel 0) to the speech worker, through the
// port the background page hands over, in blocks of 2048 (16 times fewer
// messages than Web Audio's 128-sample quanta), each stamped with when it
// was sent so the worker can tell how far behind it is. With no input
// (the source ended or was unplugged) it sends silence, so an utterance
// still ends.
const BLOCK = 2048;
class Capture extends AudioWorkletProcessor {
  constructor() {
    super();
    this.port.onmessage = (e) => { this.worker = e.data; };
    this.block = new Float32Array(BLOCK);
    this.filled = 0;
  }
  process(inputs) {
    if (!this.worker) return true;
    const quantum = (inputs[0] && inputs[0][0]) || new Float32Array(128);
    this.block.set(quantum, this.filled);
    this.filled += quantum.length;
    if (this.filled + quantum.length > BLOCK) {
      const samples = this.block.slice(0, this.filled);
      this.worker.postMessage({ type: "audio", samples, rate: sampleRate, sent: Date.now() }, [samples.buffer]);
      this.filled = 0;
    }
    return true;
  }
}
registerProcessor("tw-capture", Capture);
