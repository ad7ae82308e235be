import { createContext, useCallback, useContext, useEffect, useRef, useState } from "react";

export type AlertTone = "error" | "success" | "info";
interface AlertState {
  id: number;
  tone: AlertTone;
  title?: string;
  text: string;
}

interface AlertApi {
  show(text: string, options?: { tone?: AlertTone; title?: string; durationMs?: number }): void;
}

const AlertContext = createContext<AlertApi>({ show: () => {} });
export const useAlert = () => useContext(AlertContext);

const toneClass: Record<AlertTone, string> = {
  error: "border-red-700 bg-red-50 text-red-900",
  success: "border-green-700 bg-green-50 text-green-900",
  info: "border-slate-700 bg-white text-ink",
};

/** The spec's top-centre alert. Messages announce through role="alert" and close on their own. */
export function AlertProvider({ children }: { children: React.ReactNode }) {
  const [alert, setAlert] = useState<AlertState | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const show = useCallback<AlertApi["show"]>((text, options = {}) => {
    window.clearTimeout(timer.current);
    setAlert({ id: Date.now(), tone: options.tone ?? "info", title: options.title, text });
    timer.current = window.setTimeout(() => setAlert(null), options.durationMs ?? 1500);
  }, []);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return (
    <AlertContext value={{ show }}>
      {children}
      <div className="pointer-events-none fixed inset-x-0 top-4 z-50 flex justify-center px-4">
        {alert ? <AlertBox key={alert.id} tone={alert.tone} title={alert.title} text={alert.text} /> : null}
      </div>
    </AlertContext>
  );
}

function AlertBox({ tone, title, text }: { tone: AlertTone; title?: string; text: string }) {
  return (
    <div
      role="alert"
      className={`pointer-events-auto max-w-md rounded-lg border-l-4 px-5 py-3 shadow-lg ${toneClass[tone]}`}
    >
      {title ? <p className="font-bold">{title}</p> : null}
      <p>{text}</p>
    </div>
  );
}

/** A server-rendered alert for pages answered without JavaScript. */
export function StaticAlert({ tone, text }: { tone: AlertTone; text: string }) {
  return (
    <div className="fixed inset-x-0 top-4 z-50 flex justify-center px-4">
      <AlertBox tone={tone} text={text} />
    </div>
  );
}
