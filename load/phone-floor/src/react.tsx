// The floor of React alone: the same request and first cards, as plain elements.
import type { Product } from '@qm/contracts/rest';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { firstProducts, rootElement } from './products';

function Cards() {
  const [products, setProducts] = useState<Product[]>([]);
  useEffect(() => void firstProducts().then(setProducts), []);
  return (
    <>
      {products.map((product) => (
        <article className="card" key={product.id} data-testid="product-card">
          <h2>{product.name}</h2>
          <p>{product.description || 'No description provided.'}</p>
          <p>₹{product.price}</p>
        </article>
      ))}
    </>
  );
}

createRoot(rootElement()).render(<Cards />);
