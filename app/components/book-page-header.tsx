import type { ReactNode } from "react";
import { CheckIcon } from "./icons";
import { ShopLogo } from "./shop-logo";

export type BookStep = "upload" | "preview" | "order";

const STEPS: { id: BookStep; name: string }[] = [
  { id: "upload", name: "Upload photos" },
  { id: "preview", name: "Choose sketches" },
  { id: "order", name: "Order & delivery" },
];

/** The shop bar and the three-step path every /book/{id} page shares. */
export function BookPageHeader({ step, actions, complete }: { step: BookStep; actions?: ReactNode; complete?: boolean }) {
  return (
    <header className="border-b border-gray-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <ShopLogo />
        {actions ? <div className="flex items-center gap-2">{actions}</div> : null}
      </div>
      <StepIndicator current={step} complete={complete} />
    </header>
  );
}

/** `complete` marks every step done (the order is placed). */
function StepIndicator({ current, complete }: { current: BookStep; complete?: boolean }) {
  const currentIndex = complete ? STEPS.length : STEPS.findIndex((s) => s.id === current);
  return (
    <nav aria-label="Progress" className="border-t border-gray-100 bg-gray-50/60">
      <ol className="mx-auto flex max-w-6xl items-center gap-2 px-4 py-3 text-sm sm:gap-4">
        {STEPS.map((s, index) => {
          const done = index < currentIndex;
          const active = index === currentIndex;
          return (
            <li key={s.id} className="flex items-center gap-2 sm:gap-4" aria-current={active ? "step" : undefined}>
              <span className="flex items-center gap-2">
                <span
                  className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${
                    done
                      ? "bg-brand-600 text-white"
                      : active
                        ? "border-2 border-brand-600 text-brand-700"
                        : "border border-gray-300 text-gray-500"
                  }`}
                >
                  {done ? <CheckIcon className="h-3.5 w-3.5" /> : index + 1}
                </span>
                <span className={`${active ? "font-semibold text-gray-900" : "text-gray-500"} hidden sm:inline`}>
                  {s.name}
                </span>
                {active ? <span className="font-semibold text-gray-900 sm:hidden">{s.name}</span> : null}
              </span>
              {index < STEPS.length - 1 ? <span aria-hidden="true" className="h-px w-6 bg-gray-300 sm:w-10" /> : null}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** The Back / Next pair at the foot of each step. */
export function StepNavigation({ children }: { children: ReactNode }) {
  return (
    <div className="mt-10 flex flex-col-reverse gap-3 border-t border-gray-200 pt-6 sm:flex-row sm:items-center sm:justify-between">
      {children}
    </div>
  );
}
