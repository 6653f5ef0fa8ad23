/** Files on their way to the task's attachments: a progress bar each, or why it failed. */
export interface UploadState {
  key: string | number;
  name: string;
  loaded: number;
  total: number;
  error: string | null;
}

export function UploadProgress({
  uploads,
  label,
  dismiss,
}: {
  uploads: UploadState[];
  label: string;
  /** takes a failed upload's message away */
  dismiss: (key: UploadState["key"]) => void;
}) {
  if (uploads.length === 0) return null;
  return (
    <ul className="attachments-list" aria-label={label}>
      {uploads.map((u) => (
        <li key={u.key} className="attachment-progress" data-upload={u.name}>
          <span>{u.name}</span>
          {u.error ? (
            <>
              <span className="field-error" role="alert">
                {u.error}
              </span>
              <button
                type="button"
                className="link-button"
                aria-label={`Dismiss the message about ${u.name}`}
                onClick={() => dismiss(u.key)}
              >
                Dismiss
              </button>
            </>
          ) : (
            <progress max={u.total || 1} value={u.loaded} aria-label={`Uploading ${u.name}`}>
              {Math.round((u.loaded / (u.total || 1)) * 100)}%
            </progress>
          )}
        </li>
      ))}
    </ul>
  );
}
