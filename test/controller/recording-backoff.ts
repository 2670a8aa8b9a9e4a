// The reflector's backoff without jitter, recording each wait it hands out and answering a short
// one, so that a test counts the informer's backoffs instead of timing them.
import { ExponentialBackoff, type BackoffOptions } from '../../core/controller/backoff.js';

export class RecordingBackoff extends ExponentialBackoff {
  readonly waits: number[] = [];
  constructor(private readonly actualMs = 5, o: BackoffOptions = {}) { super({ random: () => 0, ...o }); }
  override next(): number {
    this.waits.push(super.next());
    return this.actualMs;
  }
}
