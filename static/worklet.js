// Copies each block of microphone samples (channel 0) to the speech worker,
// through the port the background page hands over. With no input (the
// source ended or was unplugged) it sends silence, so an utterance still
// ends.
class Capture extends AudioWorkletProcessor {
  constructor() {
    super();
    this.port.onmessage = (e) => { this.worker = e.data; };
  }
  process(inputs) {
    const block = inputs[0] && inputs[0][0];
    if (this.worker) {
      const samples = block ? block.slice() : new Float32Array(128);
      this.worker.postMessage({ type: "audio", samples, rate: sampleRate }, [samples.buffer]);
    }
    return true;
  }
}
registerProcessor("tw-capture", Capture);
