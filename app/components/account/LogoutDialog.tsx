import { useEffect, useRef } from "react";

export function WarningIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="56"
      height="56"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      className="mx-auto text-brand-600"
      aria-hidden="true"
    >
      <path d="M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" />
      <path d="M12 9v4M12 17h.01" strokeLinecap="round" />
    </svg>
  );
}

/** The spec's logout confirmation: a modal dialog (Escape cancels; focus stays inside). */
export function LogoutDialog({
  id,
  open,
  busy,
  onConfirm,
  onCancel,
}: {
  id: string;
  open: boolean;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = `${id}-title`;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
      className="m-auto w-full max-w-sm rounded-xl p-6 text-center shadow-2xl backdrop:bg-black/50"
    >
      <WarningIcon />
      <h2 id={titleId} className="mt-3 text-lg font-bold text-ink">
        Are you sure you want to Logout?
      </h2>
      <div className="mt-6 flex justify-center gap-3">
        {/* eslint-disable-next-line jsx-a11y/no-autofocus -- a modal dialog moves focus into itself (WAI-ARIA dialog pattern) */}
        <button type="button" className="btn-primary" onClick={onConfirm} disabled={busy} autoFocus>
          Yes
        </button>
        <button type="button" className="btn-outline" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
