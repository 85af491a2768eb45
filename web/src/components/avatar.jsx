import { useState } from 'preact/hooks';

/** A person's photo, or their initials when there is none or it does not load. */
export function Avatar({ name, src, size = 56 }) {
  const [failed, setFailed] = useState(false);
  const initials = String(name ?? '?')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0].toUpperCase())
    .join('');
  return (
    <span class="avatar" data-size={size} aria-hidden="true">
      <span>{initials}</span>
      {src && !failed && <img src={src} alt="" width={size} height={size} loading="lazy" referrerpolicy="no-referrer" onError={() => setFailed(true)} />}
    </span>
  );
}
