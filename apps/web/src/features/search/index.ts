// The search line of the top panel and the search model the mail lists are built from.
export { SearchLine } from './search-line';
export {
  emptySearchForm,
  parseSearchParams,
  searchPath,
  searchRequest,
  type SearchForm,
  type SearchRequest,
} from './search-model';
