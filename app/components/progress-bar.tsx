import { useCallback, useEffect, useRef, useState } from "react";
import { FAKE_PROGRESS_CAP, FAKE_PROGRESS_STEP, FAKE_PROGRESS_TICK_MS } from "~/lib/shop-rules";

export function ProgressBar({ value, label }: { value: number; label: string }) {
  const clamped = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div>
      <div className="mb-1 flex justify-between text-sm text-gray-600">
        <span>{label}</span>
        <span aria-hidden="true">{clamped}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={clamped}
        className="h-2.5 w-full overflow-hidden rounded-full bg-gray-200"
      >
        <div className="h-full rounded-full bg-brand-600 transition-all duration-200" style={{ width: `${clamped}%` }} />
      </div>
    </div>
  );
}

/**
 * docs/product.md §5.7: upload progress is faked locally, +10% every 200 ms up to 90%, then 100%
 * when the upload really finished. `null` while nothing is uploading.
 */
export function useFakeProgress() {
  const [progress, setProgress] = useState<number | null>(null);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);

  const stopTimer = useCallback(() => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
  }, []);

  const start = useCallback(() => {
    stopTimer();
    setProgress(0);
    timer.current = setInterval(() => {
      setProgress((current) => Math.min(FAKE_PROGRESS_CAP, (current ?? 0) + FAKE_PROGRESS_STEP));
    }, FAKE_PROGRESS_TICK_MS);
  }, [stopTimer]);

  const finish = useCallback(() => {
    stopTimer();
    setProgress(100);
  }, [stopTimer]);

  const reset = useCallback(() => {
    stopTimer();
    setProgress(null);
  }, [stopTimer]);

  useEffect(() => stopTimer, [stopTimer]);
  return { progress, start, finish, reset };
}
