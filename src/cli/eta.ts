/**
 * A real run's ETA from the estimate's model (bench --estimate): each task's estimated time, and the
 * remaining tasks' sum scaled by how the finished tasks' measured time compares with their estimate —
 * so a server slower or faster than its timed request was corrects the ETA as the run goes.
 */
export class ModelEta {
  private remainingMs: number;
  private finishedMs = 0;

  constructor(private readonly taskMs: Readonly<Record<string, number>>) {
    this.remainingMs = Object.values(taskMs).reduce((sum, ms) => sum + ms, 0);
  }

  finished(key: string): void {
    const ms = this.taskMs[key] ?? 0;
    this.remainingMs -= ms;
    this.finishedMs += ms;
  }

  /** Seconds left, the estimate corrected by the run so far (`elapsedS` since the first task started). */
  secondsLeft(elapsedS: number): number {
    const correction = this.finishedMs > 0 && elapsedS > 0 ? (elapsedS * 1000) / this.finishedMs : 1;
    return (Math.max(0, this.remainingMs) * correction) / 1000;
  }
}
