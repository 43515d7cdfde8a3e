// Copies each block of microphone samples (channel 0) to the speech worker,
// through the port the background page hands over.
class Capture extends AudioWorkletProcessor {
  constructor() {
    super();
    this.port.onmessage = (e) => { this.worker = e.data; };
  }
  process(inputs) {
    const block = inputs[0] && inputs[0][0];
    if (block && this.worker) {
      const samples = block.slice();
      this.worker.postMessage({ type: "audio", samples, rate: sampleRate }, [samples.buffer]);
    }
    return true;
  }
}
registerProcessor("tw-capture", Capture);
