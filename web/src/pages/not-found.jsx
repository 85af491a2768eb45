import { PageTitle } from '../components/ui.jsx';

export function NotFound() {
  return (
    <section>
      <PageTitle>Página no encontrada</PageTitle>
      <p>La dirección que abriste no existe. <a href="/">Volver al inicio</a>.</p>
    </section>
  );
}
