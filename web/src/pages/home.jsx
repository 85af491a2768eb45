import { PageTitle } from '../components/ui.jsx';
import { useSession } from '../session.jsx';

export function Home() {
  const { user } = useSession();
  return (
    <section class="home">
      <PageTitle lead="Calcula cuánta casa puedes comprar, encuentra propiedades a tu alcance y habla con un agente.">
        Tu próxima casa, con números claros
      </PageTitle>
      <div class="cards">
        <article class="card">
          <h2>Precalifícate en minutos</h2>
          <p>Tu puntaje de 0 a 1000 se calcula en tu navegador mientras escribes. Guárdalo para ver propiedades compatibles.</p>
          <a class="button" href="/calculator">Calcular mi puntaje</a>
        </article>
        <article class="card">
          <h2>Encuentra un agente</h2>
          <p>Busca por nombre o inmobiliaria, filtra por ciudad y especialidad, y revisa sus propiedades y reseñas.</p>
          <a class="button button-secondary" href="/agents">Ver agentes</a>
        </article>
        {!user && (
          <article class="card">
            <h2>Crea tu cuenta</h2>
            <p>Con una cuenta guardas tus datos de contacto y las inmobiliarias administran a sus agentes.</p>
            <a class="button button-secondary" href="/register">Crear cuenta</a>
          </article>
        )}
      </div>
    </section>
  );
}
